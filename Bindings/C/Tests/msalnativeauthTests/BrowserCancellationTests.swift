import Foundation
import MSAL
import Testing

@testable import msalnativeauth

/// `msal_na_cancel_browser` reaches a browser sign-in whatever the timing: a cancel that comes
/// after `msal_na_app_acquire_token` returned but before the sign-in's task exists is kept and
/// applied when the task is attached (Bindings/C/Sources/BrowserSignIn.swift).
@Suite(.serialized) struct BrowserCancellationTests {
    /// Stands in for a sign-in's task: waits until cancelled and says whether it was.
    private func signInTask() -> Task<Result<MSALResult, NSError>, Never> {
        Task {
            try? await Task.sleep(nanoseconds: 30_000_000_000) // ends at once when cancelled
            return .failure(NSError(domain: "BrowserCancellationTests", code: Task.isCancelled ? 1 : 0))
        }
    }

    private func wasCancelled(_ task: Task<Result<MSALResult, NSError>, Never>) async -> Bool {
        guard case .failure(let error) = await task.value else { return false }
        return error.code == 1
    }

    @Test func aCancelBeforeTheTaskExistsIsAppliedWhenItIsAttached() async {
        let cancellation = BrowserCancellation.register()
        #expect(BrowserCancellation.cancelAll() >= 1)
        let task = signInTask()
        cancellation.attach(task)
        BrowserCancellation.unregister(cancellation)
        #expect(await wasCancelled(task))
    }

    @Test func aCancelAfterTheTaskIsAttachedCancelsIt() async {
        let cancellation = BrowserCancellation.register()
        let task = signInTask()
        cancellation.attach(task)
        #expect(BrowserCancellation.cancelAll() >= 1)
        BrowserCancellation.unregister(cancellation)
        #expect(await wasCancelled(task))
    }
}

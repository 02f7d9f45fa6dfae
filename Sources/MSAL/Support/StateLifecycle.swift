import Foundation

/// Whether an answer ended a state's flow: what decides the `newState` a failed delegate call
/// hands back (`nil` once the flow is over, the same state while the user can try again); and when
/// the state's continuation token was issued, which a saved state carries so that its age survives
/// the process (docs/saved-states.md#expiry).
///
/// It is no gate. As in MSAL, every call on a state goes to the service, whatever was done with the
/// state before (a code submitted on the state that asked for a resend, a step repeated after it
/// succeeded): the service decides. The table of what each state method does is in docs/usage.md,
/// "Reusing a state".
package final class StateLifecycle: Sendable {
    private let ended = Locked(false)
    /// When the service issued the state's continuation token (as the SDK's clock read it).
    package let issuedAt: Date

    package init(issuedAt: Date) {
        self.issuedAt = issuedAt
    }

    /// A lifecycle starting now on `client`'s clock, or at `restoredIssuedAt` for a restored state.
    package convenience init(_ client: NativeAuthClient, restoredIssuedAt: Date? = nil) {
        self.init(issuedAt: restoredIssuedAt ?? client.environment.clock.now())
    }

    package var hasEnded: Bool { ended.withLock { $0 } }

    /// Records that an answer ended the flow: the service refused the state's token for good, or
    /// moved the flow on and the step that followed failed.
    package func end() {
        ended.withLock { $0 = true }
    }
}

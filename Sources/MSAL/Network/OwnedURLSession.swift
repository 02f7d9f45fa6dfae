import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A URL session that its owner invalidates when the owner goes away, wherever that happens.
///
/// The last reference to an owner can be dropped on the session's own work queue: a completion
/// handler that captured the app which owns the session is released there when the session
/// forgets its task (seen as a crash of a whole test run). FoundationNetworking's
/// `invalidateAndCancel` runs `sync` on that queue, which from the queue itself traps, so the
/// invalidation always runs on another queue. URLSessionTransportTests releases owners that way.
package final class OwnedURLSession: Sendable {
    package let session: URLSession

    package init(configuration: URLSessionConfiguration, delegate: (any URLSessionDelegate & Sendable)?) {
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        let session = self.session
        DispatchQueue.global().async { session.invalidateAndCancel() }
    }
}

import Foundation

/// What a store that watches its data tells the SDK about other writers' changes
/// (`MSALTokenCacheEntryStore.observeChanges(clientId:_:)`; Redis: `CLIENT TRACKING`).
///
/// While a store reports `tracking`, the SDK trusts a partition it read after that report until
/// the store names it in `changed` (or reports `changedAll` or `stopped`), without asking the
/// store on each request. Otherwise it trusts a partition for the check interval. A store that
/// sends `tracking` promises to report every change of the client's partitions from then on, its
/// own writes included, until it sends `stopped`; a change it cannot attribute is `changedAll`.
public enum MSALTokenCacheChange: Sendable, Equatable {
    /// The store reports every change of the client's partitions from now on (again).
    case tracking
    /// This partition changed, or may have (written, removed or expired).
    case changed(MSALTokenCachePartition)
    /// Anything may have changed (the store's data was flushed).
    case changedAll
    /// The store no longer reports changes (it lost its connection): what was read before is
    /// trusted for the check interval, as from a store without notifications.
    case stopped
}

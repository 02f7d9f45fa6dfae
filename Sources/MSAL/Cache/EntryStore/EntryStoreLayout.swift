import Foundation

/// How a token cache document is laid out in an `MSALTokenCacheEntryStore` (docs/decisions.md#shared-token-cache):
/// which partition each entry belongs to, its key and bytes, when it may expire, and the writes that
/// take the store from one document to the next. Pure functions, so that tests check the layout
/// without a store.
package enum EntryStoreLayout {
    /// Entries of one partition by store key.
    package typealias Entries = [String: TokenCacheEntry]

    /// How long a refresh token, an id token and an account record are kept after they were last
    /// written: the longest an unused refresh token lives at the service (90 days of inactivity).
    package static let longLivedLifetime: TimeInterval = 90 * 24 * 3600

    /// Values larger than this are not the SDK's (an entry is a few kilobytes at most).
    package static let maxEntryBytes = 1 << 20

    /// `<Section>:<cache key>`.
    package static func storeKey(_ section: TokenCacheDocument.Section, _ cacheKey: String) -> String {
        "\(section.rawValue):\(cacheKey)"
    }

    /// The section and cache key of a store key; nil for a key the SDK does not make.
    package static func parseStoreKey(_ key: String) -> (section: TokenCacheDocument.Section, cacheKey: String)? {
        guard let colon = key.firstIndex(of: ":"), let section = TokenCacheDocument.Section(rawValue: String(key[..<colon])) else {
            return nil
        }
        return (section, String(key[key.index(after: colon)...]))
    }

    /// The account's partition for an entry with a `home_account_id` (app metadata aside), else the client's.
    package static func partition(of entry: TokenCacheEntry, in section: TokenCacheDocument.Section, clientId: String)
        -> MSALTokenCachePartition
    {
        guard section != .appMetadata, let home = entry.string("home_account_id"), !home.isEmpty else {
            return MSALTokenCachePartition(clientId: clientId, homeAccountId: nil)
        }
        return MSALTokenCachePartition(clientId: clientId, homeAccountId: home)
    }

    /// The document's entries by partition and store key.
    package static func partitions(of document: TokenCacheDocument, clientId: String) -> [MSALTokenCachePartition: Entries] {
        var result: [MSALTokenCachePartition: Entries] = [:]
        for section in TokenCacheDocument.Section.allCases {
            for (key, entry) in document[section] {
                result[partition(of: entry, in: section, clientId: clientId), default: [:]][storeKey(section, key)] = entry
            }
        }
        return result
    }

    /// The document made of every partition's entries.
    package static func document(of partitions: some Sequence<Entries>) -> TokenCacheDocument {
        var document = TokenCacheDocument()
        for entries in partitions {
            for (key, entry) in entries {
                guard let (section, cacheKey) = parseStoreKey(key) else { continue }
                document[section][cacheKey] = entry
            }
        }
        return document
    }

    /// The partitions a change from `before` to `after` touched, with their entries before
    /// (`entries(partition)`, the copy as last read) and after the change. Sections are compared first and
    /// entries only in a section that changed, so the cost follows the change, not the cache:
    /// an unchanged section or entry is the same storage and compares at once.
    package static func changes(
        from before: TokenCacheDocument, to after: TokenCacheDocument, clientId: String,
        entries: (MSALTokenCachePartition) -> Entries
    ) -> (before: [MSALTokenCachePartition: Entries], after: [MSALTokenCachePartition: Entries]) {
        var old: [MSALTokenCachePartition: Entries] = [:]
        var new: [MSALTokenCachePartition: Entries] = [:]
        func touch(_ partition: MSALTokenCachePartition) {
            guard old[partition] == nil else { return }
            old[partition] = entries(partition)
            new[partition] = old[partition]
        }
        for section in TokenCacheDocument.Section.allCases {
            let was = before[section]
            let now = after[section]
            guard was != now else { continue }
            for (key, entry) in now where was[key] != entry {
                if let previous = was[key] {
                    let from = partition(of: previous, in: section, clientId: clientId)
                    touch(from)
                    new[from]![storeKey(section, key)] = nil
                }
                let to = partition(of: entry, in: section, clientId: clientId)
                touch(to)
                new[to]![storeKey(section, key)] = entry
            }
            for (key, previous) in was where now[key] == nil {
                let from = partition(of: previous, in: section, clientId: clientId)
                touch(from)
                new[from]![storeKey(section, key)] = nil
            }
        }
        return (old, new)
    }

    /// Replaces `partition`'s entries in `document`: `old` (as the document holds them) out, `new` in.
    /// A key of `old` that the document holds for another partition stays.
    package static func replace(
        _ partition: MSALTokenCachePartition, _ old: Entries, with new: Entries, in document: inout TokenCacheDocument
    ) {
        for key in old.keys where new[key] == nil {
            guard let (section, cacheKey) = parseStoreKey(key), let held = document.sections[section.rawValue]?[cacheKey],
                self.partition(of: held, in: section, clientId: partition.clientId) == partition
            else { continue }
            // Through `sections`, which changes the section in place (the section subscript copies it).
            document.sections[section.rawValue]?[cacheKey] = nil
        }
        for (key, entry) in new {
            guard let (section, cacheKey) = parseStoreKey(key) else { continue }
            document.sections[section.rawValue, default: [:]][cacheKey] = entry
        }
    }

    /// The stored entries of `partition` that are the SDK's: a known key, a JSON object of at most
    /// `maxEntryBytes`, in the partition its `home_account_id` names. `rejected` counts the others.
    package static func decode(_ stored: [String: Data], of partition: MSALTokenCachePartition) -> (entries: Entries, rejected: Int) {
        var entries: Entries = [:]
        var rejected = 0
        for (key, data) in stored {
            guard let (section, _) = parseStoreKey(key), data.count <= maxEntryBytes, let entry = decodeEntry(data, section: section),
                self.partition(of: entry, in: section, clientId: partition.clientId) == partition
            else {
                rejected += 1
                continue
            }
            entries[key] = entry
        }
        return (entries, rejected)
    }

    /// One entry's JSON object, parsed as the document parser parses an entry of `section`; nil for
    /// anything else (another value, trailing members, text that is not JSON).
    private static func decodeEntry(_ data: Data, section: TokenCacheDocument.Section) -> TokenCacheEntry? {
        let prefix = "{\"\(section.rawValue)\":{\"e\":".utf8
        // Sized once: grown by appends, the text would hold up to twice its bytes for as long as the entry is held.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(prefix.count + data.count + 2)
        bytes.append(contentsOf: prefix)
        bytes.append(contentsOf: data)
        bytes.append(contentsOf: "}}".utf8)
        guard let document = try? TokenCacheDocument(bytes: bytes), document.otherMembers.isEmpty,
            document.sections.count == 1, let entries = document.sections[section.rawValue], entries.count == 1
        else { return nil }
        return entries["e"]
    }

    /// When an entry may disappear: an access token at its `expires_on`; the client's partition
    /// never; anything else `longLivedLifetime` after `now`.
    package static func expiry(of key: String, _ entry: TokenCacheEntry, in partition: MSALTokenCachePartition, now: Date) -> Date? {
        guard partition.homeAccountId != nil else { return nil }
        if parseStoreKey(key)?.section == .accessToken, let expiresOn = entry.epochSeconds("expires_on") {
            return Date(timeIntervalSince1970: expiresOn)
        }
        return now.addingTimeInterval(longLivedLifetime)
    }

    /// What the store must do to go from `before` to `after`, partition by partition.
    package struct Plan {
        /// Partitions that keep entries: the entries to set and to remove.
        package var writes: [MSALTokenCacheEntryWrite] = []
        /// Partitions left with no entry (a sign-out).
        package var removals: [MSALTokenCachePartition] = []
        /// Every changed partition's entries after the plan, expired access tokens dropped (empty for a removal).
        package var entries: [MSALTokenCachePartition: Entries] = [:]
    }

    /// The writes from `before` (the entries as last read) to `after`: only partitions whose entries
    /// differ, and in them only the entries that differ. A partition written also loses its access
    /// tokens expired at `now`; when any of its long-lived entries (refresh token, id token,
    /// account) is set, all of them are set again, so that they expire together.
    package static func plan(from before: [MSALTokenCachePartition: Entries], to after: [MSALTokenCachePartition: Entries], now: Date)
        -> Plan
    {
        var plan = Plan()
        for partition in Set(before.keys).union(after.keys) {
            let old = before[partition] ?? [:]
            var new = after[partition] ?? [:]
            guard old != new else { continue }
            for (key, entry) in new where parseStoreKey(key)?.section == .accessToken {
                if let expiresOn = entry.epochSeconds("expires_on"), expiresOn <= now.timeIntervalSince1970 { new[key] = nil }
            }
            plan.entries[partition] = new
            if new.isEmpty {
                plan.removals.append(partition)
                continue
            }
            var changed = Set(new.compactMap { key, entry in old[key] == entry ? nil : key })
            if partition.homeAccountId != nil, changed.contains(where: { parseStoreKey($0)?.section != .accessToken }) {
                changed.formUnion(new.keys.filter { parseStoreKey($0)?.section != .accessToken })
            }
            var set: [String: MSALTokenCacheEntryValue] = [:]
            for key in changed {
                let entry = new[key]!
                set[key] = MSALTokenCacheEntryValue(data: Data(entry.jsonBytes), expiresOn: expiry(of: key, entry, in: partition, now: now))
            }
            let remove = Set(old.keys).subtracting(new.keys)
            guard !set.isEmpty || !remove.isEmpty else { continue }
            plan.writes.append(MSALTokenCacheEntryWrite(partition: partition, set: set, remove: remove))
        }
        plan.writes.sort { $0.partition.description < $1.partition.description }
        plan.removals.sort { $0.description < $1.description }
        return plan
    }
}

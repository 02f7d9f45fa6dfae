import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The directories Foundation on Linux creates when any `URLSessionConfiguration` is made, and
/// which the SDK never uses: the shared URL cache's, `$XDG_CACHE_HOME/org.swift.foundation.URLCache/<program>`,
/// and the shared cookie store's, `$XDG_DATA_HOME/<folder of the program>` (both made empty, 0755, by
/// `URLSessionConfiguration.default`, which `.ephemeral` copies; measured on this toolchain). The
/// transport's session has no disk cache and no cookie store, so nothing is ever written there.
///
/// `URLSessionTransport` takes a snapshot before it makes its configuration and then removes what
/// appeared, so that a program using the SDK leaves nothing outside the places it chose itself.
/// Only directories that did not exist before and are still empty are removed (`rmdir`, which
/// refuses a directory with anything in it), deepest first.
struct UnusedFoundationDirectories {
    /// The directories that may be created, parents before children, and whether each existed.
    private var chain: [(path: String, existed: Bool)] = []
    /// The two folders whose new children are Foundation's, with the children they had.
    private var roots: [(path: String, children: Set<String>)] = []

    /// What exists now, in the environment of this process.
    static func snapshot(environment: [String: String] = ProcessInfo.processInfo.environment) -> Self {
        guard let home = environment["HOME"], !home.isEmpty else { return Self() }
        let cacheHome = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.cache"
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
        let urlCache = cacheHome + "/org.swift.foundation.URLCache"
        var snapshot = Self()
        let paths = ancestors(of: cacheHome, below: home) + [cacheHome, urlCache] + ancestors(of: dataHome, below: home) + [dataHome]
        for path in paths {
            snapshot.chain.append((path, Self.isDirectory(path)))
        }
        for root in [urlCache, dataHome] {
            snapshot.roots.append((root, Set((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])))
        }
        return snapshot
    }

    /// Removes the empty directories that appeared since the snapshot.
    func removeNew() {
        for root in roots {
            let now = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
            for child in now where !root.children.contains(child) {
                _ = rmdir(root.path + "/" + child)
            }
        }
        for entry in chain.reversed() where !entry.existed {
            _ = rmdir(entry.path)
        }
    }

    /// The folders between `home` (excluded) and `path` (excluded): `~/.local` for `~/.local/share`.
    private static func ancestors(of path: String, below home: String) -> [String] {
        guard path.hasPrefix(home + "/") else { return [] }
        let parts = path.dropFirst(home.count + 1).split(separator: "/")
        return parts.dropLast().indices.map { home + "/" + parts[...$0].joined(separator: "/") }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

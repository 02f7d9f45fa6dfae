import Foundation
import Testing

/// Where the keyring tests run. Those that use the Secret Service run only inside the private
/// session of `scripts/test-keyring` (a `dbus-run-session` with its own unlocked GNOME Keyring and
/// a fresh HOME, which sets `MSAL_KEYRING_SESSION=1`): never against a developer's real login
/// keyring. Outside it they are skipped with that reason; inside it nothing is skipped.
package enum KeyringSession {
    package static let environment = ProcessInfo.processInfo.environment
    package static let isPrivate = environment["MSAL_KEYRING_SESSION"] == "1"
    package static let reason: Comment = "needs the private Secret Service session of scripts/test-keyring (scripts/test runs it)"
}

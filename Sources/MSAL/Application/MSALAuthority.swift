import Foundation

/// An authority: the URL of the tenant that signs users in. Mirrors MSAL's `MSALAuthority`.
public class MSALAuthority: @unchecked Sendable {
    // `@unchecked` only because the class is not final (MSAL's hierarchy); its one stored
    // property is a `let` of a Sendable type and subclasses (all in this module) add none.

    /// The normalised authority URL that endpoint paths are appended to.
    public let url: URL

    init(validatedURL: URL) {
        url = validatedURL
    }

    /// An authority from its URL: `https` (or `http` for a loopback host), no user information;
    /// query and fragment are dropped. Throws an `MSALErrorDomain` error (`internalErrorInvalidParameter`).
    public convenience init(url: URL) throws {
        do throws(SetupError) { self.init(validatedURL: try MSALAuthority.normalise(url)) } catch { throw error.nsError }
    }

    /// `https://login.microsoftonline.com/common`, MSAL's default.
    static let common = MSALAuthority(validatedURL: URL(string: "https://login.microsoftonline.com/common")!)

    /// The host without port, as the cache's `environment` (MSAL for Python computes it so).
    package var environment: String { url.host?.lowercased() ?? "" }
}

/// The authority of a Microsoft Entra External ID (CIAM) tenant.
///
/// Accepted forms (docs/protocol.md#authority-forms): `https://contoso.ciamlogin.com` (normalised to
/// `https://contoso.ciamlogin.com/contoso.onmicrosoft.com`), the long form, the tenant-id form
/// `https://contoso.ciamlogin.com/{tenant-guid}`, and a custom URL domain. Query and fragment are
/// dropped, as is a trailing `/`. The scheme must be `https`; `http` is accepted only for loopback
/// hosts (`localhost`, `127.0.0.0/8`, `::1`), where the local emulator listens.
public final class MSALCIAMAuthority: MSALAuthority, @unchecked Sendable {
    /// Throws an `MSALErrorDomain` error (`internalErrorInvalidParameter`) for a URL that cannot be used.
    /// Any host is accepted (a custom URL domain too), as MSAL's `init(url:)` does: it checks no format.
    public convenience init(url: URL) throws {
        try self.init(url: url, validateFormat: false)
    }

    /// As MSAL's `initWithURL:validateFormat:error:`. With `validateFormat: true` the host must be a
    /// `ciamlogin` one (`{tenant}.ciamlogin.com`) and the authority keeps only its first path
    /// segment, the tenant; with `false` a custom URL domain is accepted as it is.
    public init(url: URL, validateFormat: Bool) throws {
        do throws(SetupError) {
            var normalised = try MSALAuthority.normalise(url)
            if validateFormat { normalised = try MSALCIAMAuthority.checkCIAMFormat(normalised) }
            super.init(validatedURL: normalised)
        } catch {
            throw error.nsError
        }
    }

    /// MSAL's CIAM format: at least three host labels, the second `ciamlogin`, and a tenant in the
    /// path (`normalise` has added `/{tenant}.onmicrosoft.com` when there was none).
    private static func checkCIAMFormat(_ url: URL) throws(SetupError) -> URL {
        let labels = (url.host ?? "").lowercased().split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 3, labels[1] == "ciamlogin" else {
            throw SetupError(
                .invalidAuthority,
                "The authority '\(url.absoluteString)' is not a CIAM authority (https://{tenant}.ciamlogin.com); pass validateFormat: false for a custom URL domain"
            )
        }
        guard let tenant = url.pathComponents.dropFirst().first, var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else {
            throw SetupError(.invalidAuthority, "The authority '\(url.absoluteString)' names no tenant")
        }
        components.path = "/" + tenant
        guard let tenantURL = components.url else {
            throw SetupError(.invalidAuthority, "The authority '\(url.absoluteString)' is not a valid URL")
        }
        return tenantURL
    }

    private init(checked url: URL) throws(SetupError) {
        super.init(validatedURL: try MSALAuthority.normalise(url))
    }

    /// Builds `https://{subdomain}.ciamlogin.com/{subdomain}.onmicrosoft.com`.
    public convenience init(tenantSubdomain: String) throws {
        do throws(SetupError) { try self.init(validatingTenantSubdomain: tenantSubdomain) } catch { throw error.nsError }
    }

    convenience init(validatingTenantSubdomain tenantSubdomain: String) throws(SetupError) {
        let label = tenantSubdomain.lowercased()
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        guard !label.isEmpty, label.count <= 63, label.allSatisfy(allowed.contains),
            label.first != "-", label.last != "-"
        else {
            throw SetupError(
                .invalidParameter, "tenantSubdomain '\(tenantSubdomain)' is not a valid DNS label (letters, digits and '-')")
        }
        guard let url = URL(string: "https://\(label).ciamlogin.com") else {
            throw SetupError(.invalidParameter, "tenantSubdomain '\(tenantSubdomain)' does not form a URL")
        }
        try self.init(checked: url)
    }
}

extension MSALAuthority {
    /// Checks an authority URL and brings it to the form endpoint paths are appended to (docs/protocol.md#authority-forms).
    static func normalise(_ url: URL) throws(SetupError) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw SetupError(.invalidAuthority, "The authority '\(url.absoluteString)' is not a valid URL")
        }
        guard let scheme = components.scheme?.lowercased() else {
            throw SetupError(.invalidAuthority, "The authority '\(url.absoluteString)' has no scheme; use https")
        }
        guard let host = components.host, !host.isEmpty else {
            throw SetupError(.invalidAuthority, "The authority '\(url.absoluteString)' has no host")
        }
        switch scheme {
        case "https":
            break
        case "http" where isLoopback(host):
            break
        case "http":
            throw SetupError(.invalidAuthority, "The authority must use https; http is allowed only for loopback hosts (got '\(host)')")
        default:
            throw SetupError(.invalidAuthority, "The authority must use https (got '\(scheme)')")
        }
        guard components.user == nil, components.password == nil else {
            throw SetupError(.invalidAuthority, "The authority must not carry user information")
        }
        components.scheme = scheme
        components.query = nil
        components.fragment = nil
        var path = components.path
        while path.hasSuffix("/") { path.removeLast() }
        let labels = host.lowercased().split(separator: ".")
        if path.isEmpty, labels.count >= 2, labels[1] == "ciamlogin" {
            path = "/\(labels[0]).onmicrosoft.com"
        }
        components.path = path
        guard let normalised = components.url else {
            throw SetupError(.invalidAuthority, "The authority '\(url.absoluteString)' is not a valid URL")
        }
        return normalised
    }

    /// Whether a host names this machine: `localhost`, an IPv4 address in 127.0.0.0/8, or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare.hasSuffix(".localhost") || bare == "::1" || bare == "0:0:0:0:0:0:0:1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { octet in
            guard let value = Int(octet), (0...255).contains(value), octet.allSatisfy(\.isASCII) else { return false }
            return true
        }
    }
}

/// The SDK's own identity.
public enum MSALNativeAuthSDK {
    /// The version: the file VERSION at the top of the repository, copied here by `scripts/set-version`
    /// (Tests/MSALTests/VersionTests.swift checks every copy). Sent as `x-client-Ver`; what
    /// `native-auth --version`, `msal_na_version()` and the packages report.
    public static let version = "0.1.0"
}

/// An access token as the look-up copy keeps it: the fields the index reads (strings shared
/// between tokens), and where its secret lies in the file.
package struct LookupAccessToken: Sendable {
    var homeAccountId: String
    var clientId: String
    var environment: String
    var realm: String
    var target: String
    var expiresOn: Double?
    var cachedAt: Double?
    var refreshOn: Double?
    var secret: SecretFile.Location
}

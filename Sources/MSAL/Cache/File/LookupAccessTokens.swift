/// The access tokens of a look-up copy, whose document keeps an empty `AccessToken` section.
package struct LookupAccessTokens: Sendable {
    let file: SecretFile
    let tokens: [LookupAccessToken]
}

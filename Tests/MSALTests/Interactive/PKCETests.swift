import Foundation
import Testing

@testable import MSAL

/// PKCE (RFC 7636), `state` and `nonce` generation.
@Suite struct PKCETests {
    /// Draws 0, 1, 2, … so that each call's bytes are predictable and differ from the last.
    private static func counting() -> RandomBytes {
        let next = Locked<UInt8>(0)
        return RandomBytes { count in
            next.withLock { value in
                (0..<count).map { _ in
                    defer { value &+= 1 }
                    return value
                }
            }
        }
    }

    @Test func rfc7636AppendixB() {
        let pkce = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(PKCE.method == "S256")
    }

    @Test func rfc7636AppendixBVerifierComesFromItsOctets() {
        // The RFC's 32 octets, which encode to its verifier.
        let octets: [UInt8] = [
            116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214, 191, 240, 91, 88, 5,
            88, 83, 132, 141, 121,
        ]
        let pkce = PKCE.generate(
            using: RandomBytes { count in
                #expect(count == 32)
                return octets
            })
        #expect(pkce.verifier == "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test func systemVerifierIs43Base64URLCharactersAndFresh() {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let verifiers = (0..<20).map { _ in PKCE.generate().verifier }
        for verifier in verifiers {
            #expect(verifier.count == 43)
            #expect(verifier.allSatisfy(allowed.contains))
        }
        #expect(Set(verifiers).count == verifiers.count)
    }

    @Test func secretsDrawVerifierStateAndNonceSeparately() {
        let secrets = AuthorizationSecrets.generate(using: Self.counting())
        #expect(secrets.pkce.verifier == Base64URL.encode(Data((0..<32).map { UInt8($0) })))
        #expect(secrets.state == Base64URL.encode(Data((32..<64).map { UInt8($0) })))
        #expect(secrets.nonce == Base64URL.encode(Data((64..<96).map { UInt8($0) })))
        #expect(secrets.pkce.challenge == PKCE.challenge(for: secrets.pkce.verifier))
    }

    @Test func systemStateAndNonceCarryAtLeast128BitsAndDiffer() throws {
        let secrets = AuthorizationSecrets.generate()
        #expect(try #require(Base64URL.decode(secrets.state)).count * 8 >= 128)
        #expect(try #require(Base64URL.decode(secrets.nonce)).count * 8 >= 128)
        #expect(!secrets.state.contains("="))
        #expect(secrets.state != secrets.nonce)
        #expect(secrets.state != AuthorizationSecrets.generate().state)
    }
}

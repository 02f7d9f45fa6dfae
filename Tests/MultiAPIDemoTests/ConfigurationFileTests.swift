import Foundation
import MSAL
import Testing

@testable import MultiAPIDemoKit
@testable import NativeAuthEmulator

@Suite struct ConfigurationFileTests {
    @Test(arguments: [
        ("{}", "client_id"),
        (#"{"client_id": ""}"#, "client_id"),
        (#"{"client_id": "x"}"#, "tenant_subdomain"),
        (#"{"client_id": "x", "tenant_subdomain": "a", "authority": "https://b"}"#, "exactly one"),
        (#"{"client_id": "x", "tenant_subdomain": "a", "challenge_types": ["sms"]}"#, "challenge_types"),
        (#"{"client_id": "x", "tenant_subdomain": "a", "api1": {"url": "https://x"}}"#, "api1.scopes"),
        (#"{"client_id": "x", "tenant_subdomain": "a", "api2": {"scopes": ["s"]}}"#, "api2.url"),
        (#"{"client_id": "x", "tenant_subdomain": "a", "colour": "red"}"#, "colour"),
        (#"{"client_id": "x", "tenant_subdomain": "a", "capabilities": ["mfa"]}"#, "capabilities"),
        (#"{"client_id": "x", "tenant_subdomain": "a", "capabilities": "mfa_required"}"#, "capabilities"),
        (#"{"client_id": "x", "tenant_subdomain": "a", "token_cache": "wallet"}"#, "token_cache"),
        (#"{"client_id": "x", "tenant_subdomain": "a", "token_cache": true}"#, "token_cache"),
        ("[1]", "JSON object"),
    ])
    func badConfigurationsNameTheField(json: String, field: String) {
        do {
            _ = try DemoConfiguration.load(Data(json.utf8))
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.description.contains(field), "\(error)")
        }
    }

    @Test func aGoodConfiguration() throws {
        let configuration = try DemoConfiguration.load(
            Data(
                #"""
                {"client_id": "id", "tenant_subdomain": "contoso", "challenge_types": ["oob"],
                 "api1": {"url": "https://a", "scopes": ["api://a/R"]}}
                """#.utf8))
        #expect(configuration.clientId == "id" && configuration.challengeTypes == ["oob"] && configuration.api2 == nil)
        #expect(configuration.api1 == DemoAPI(url: "https://a", scopes: ["api://a/R"]))
        #expect(configuration.capabilities == ["mfa_required", "registration_required"], "both by default")
        #expect(configuration.tokenCache == .file, "the file store by default")
        let without = try DemoConfiguration.load(Data(#"{"client_id": "id", "tenant_subdomain": "c", "capabilities": []}"#.utf8))
        #expect(without.capabilities.isEmpty)
        let keyring = try DemoConfiguration.load(Data(#"{"client_id": "id", "tenant_subdomain": "c", "token_cache": "keyring"}"#.utf8))
        #expect(keyring.tokenCache == .keyring)
    }
}

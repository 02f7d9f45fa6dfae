import Foundation
import NativeAuthAppConfig
import Testing

/// The configuration file's `redis` object, `"token_cache": "redis"` and `"saved_sign_ins"`, parsed
/// in process (docs/cli.md#redis).
@Suite struct RedisConfigurationTests {
    static let base = #""client_id": "x", "tenant_subdomain": "a""#

    @Test(arguments: [
        (#""token_cache": "redis""#, "field 'redis' is missing"),
        (#""saved_sign_ins": "redis""#, "field 'redis' is missing"),
        (#""redis": {"url": "redis://h"}"#, "neither 'token_cache' nor 'saved_sign_ins'"),
        (#""saved_sign_ins": "cloud""#, "field 'saved_sign_ins' must be"),
        (#""token_cache": "redis", "redis": "redis://h""#, "field 'redis' must be an object"),
        (#""token_cache": "redis", "redis": {}"#, "field 'redis.url' is missing"),
        (#""token_cache": "redis", "redis": {"url": ""}"#, "field 'redis.url' must be a non-empty string"),
        (#""token_cache": "redis", "redis": {"url": "http://h"}"#, "redis://, rediss:// or unix://"),
        (#""token_cache": "redis", "redis": {"url": "redis:h"}"#, "redis://, rediss:// or unix://"),
        (#""token_cache": "redis", "redis": {"url": "redis://h", "port": 6379}"#, "unknown field 'redis.port'"),
        (#""token_cache": "redis", "redis": {"url": "redis://h", "ca_file": "/ca.pem"}"#, "'redis.ca_file' applies to TLS only"),
        (#""token_cache": "redis", "redis": {"url": "redis://h", "key_prefix": 3}"#, "'redis.key_prefix' must be a non-empty string"),
        (#""token_cache": "redis", "redis": {"url": "redis://h", "password_file": ""}"#, "'redis.password_file' must be"),
    ])
    func badRedisSettingsNameTheField(fields: String, expected: String) {
        let json = "{\(Self.base), \(fields)}"
        do {
            _ = try AppConfiguration.load(Data(json.utf8))
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.description.contains(expected), "\(json): \(error)")
        }
    }

    @Test func aPasswordInTheURLIsRefusedWithoutShowingIt() {
        let json = #"{"client_id": "x", "tenant_subdomain": "a", "token_cache": "redis", "redis": {"url": "redis://app:S3cret-pw@h:6379"}}"#
        do {
            _ = try AppConfiguration.load(Data(json.utf8))
            Issue.record("accepted a password in the URL")
        } catch {
            #expect(error.description.contains("password_file"), "\(error)")
            #expect(!error.description.contains("S3cret-pw"))
        }
    }

    @Test func aFullRedisObjectIsReadAndWrittenBack() throws {
        let json = #"""
            {"client_id": "x", "tenant_subdomain": "a", "token_cache": "redis", "saved_sign_ins": "redis",
             "redis": {"url": "rediss://worker@cache.internal:6380/2", "password_file": "/etc/p", "ca_file": "/etc/ca.pem",
                       "key_prefix": "contoso:", "encryption_key_file": "/etc/k"}}
            """#
        let configuration = try AppConfiguration.load(Data(json.utf8))
        #expect(configuration.tokenCache == .redis && configuration.savedSignIns == .redis)
        #expect(
            configuration.redis
                == AppConfiguration.Redis(
                    url: "rediss://worker@cache.internal:6380/2", passwordFile: "/etc/p", caFile: "/etc/ca.pem", keyPrefix: "contoso:",
                    encryptionKeyFile: "/etc/k"))
        #expect(try AppConfiguration.load(configuration.encoded()) == configuration)

        let savedOnly = try AppConfiguration.load(
            Data(#"{"client_id": "x", "tenant_subdomain": "a", "saved_sign_ins": "redis", "redis": {"url": "unix:///run/r.sock"}}"#.utf8))
        #expect(savedOnly.tokenCache == .file && savedOnly.savedSignIns == .redis && savedOnly.redis?.url == "unix:///run/r.sock")
        let plain = try AppConfiguration.load(Data("{\(Self.base)}".utf8))
        #expect(plain.savedSignIns == .file && plain.redis == nil, "the file by default, as before")
    }
}

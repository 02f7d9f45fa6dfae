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
        (#""token_cache": "redis", "redis": {"url": "http://h"}"#, "field 'redis.url': The Redis URL's scheme must be"),
        (#""token_cache": "redis", "redis": {"url": "redis:h"}"#, "field 'redis.url': The Redis URL has no host"),
        (#""token_cache": "redis", "redis": {"url": "redis://h", "port": 6379}"#, "unknown field 'redis.port'"),
        (#""token_cache": "redis", "redis": {"url": "redis://h", "ca_file": "/ca.pem"}"#, "'redis.ca_file' applies to TLS only"),
        (
            #""token_cache": "redis", "redis": {"url": "redis://h", "certificate_file": "/c.pem"}"#,
            "'redis.certificate_file' applies to TLS only"
        ),
        (#""token_cache": "redis", "redis": {"url": "rediss://h", "certificate_key_file": "/k.pem"}"#, "needs 'redis.certificate_file'"),
        (#""token_cache": "redis", "redis": {"url": "redis://h", "key_prefix": 3}"#, "'redis.key_prefix' must be a string"),
        (#""token_cache": "redis", "redis": {"url": "redis://h", "password_file": ""}"#, "'redis.password_file' must be an absolute path"),
        (
            #""token_cache": "redis", "redis": {"url": "redis://h", "password_file": "etc/p"}"#,
            "'redis.password_file' must be an absolute path"
        ),
        (#""token_cache": "redis", "redis": {"url": "redis://h", "password_command": "az"}"#, "'redis.password_command' must be a list"),
        (#""token_cache": "redis", "redis": {"url": "redis://h", "password_command": []}"#, "'redis.password_command' must be a list"),
        (
            #""token_cache": "redis", "redis": {"url": "redis://h", "password_file": "/p", "password_command": ["cat", "/p"]}"#,
            "at most one of 'redis.password_file' and 'redis.password_command'"
        ),
        (
            #""token_cache": "redis", "redis": {"url": "redis://h", "password_command_refresh_seconds": 60}"#,
            "applies to 'redis.password_command' only"
        ),
        (
            #""token_cache": "redis", "redis": {"url": "redis://h", "check_interval_seconds": true}"#,
            "must be a number of seconds in [0, 3600]"
        ),
        (#""token_cache": "redis", "redis": {"url": "redis-sentinel://h1,h2/"}"#, "field 'redis.url'"),
        (#""token_cache": "file", "cache": "redis""#, "set at most one of 'token_cache' and 'cache'"),
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

    /// The C interface's spelling of the switch, and every member the shared reader knows, read
    /// and written back.
    @Test func theCInterfacesSpellingAndEveryMemberAreRead() throws {
        let json = #"""
            {"client_id": "x", "tenant_subdomain": "a", "cache": "redis",
             "redis": {"url": "rediss-sentinel://10.0.0.1,10.0.0.2:26380/cache-primary", "password_command": ["az", "account"],
                       "password_command_refresh_seconds": 900, "ca_file": "/ca.pem", "certificate_file": "/c.pem",
                       "certificate_key_file": "/k.pem", "key_prefix": "", "check_interval_seconds": 0.5}}
            """#
        let configuration = try AppConfiguration.load(Data(json.utf8))
        #expect(configuration.tokenCache == .redis)
        let redis = try #require(configuration.redis)
        #expect(redis.passwordCommand == ["az", "account"] && redis.passwordCommandRefresh == 900 && redis.checkInterval == 0.5)
        #expect(redis.certificateFile == "/c.pem" && redis.certificateKeyFile == "/k.pem" && redis.keyPrefix == "")
        #expect(try AppConfiguration.load(configuration.encoded()) == configuration)
        let byDefault = try AppConfiguration.load(Data("{\(Self.base), \"token_cache\": \"default\"}".utf8))
        #expect(byDefault.tokenCache == .file)
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
        var expected = AppConfiguration.Redis(url: "rediss://worker@cache.internal:6380/2")
        (expected.passwordFile, expected.caFile, expected.keyPrefix, expected.encryptionKeyFile) = (
            "/etc/p", "/etc/ca.pem", "contoso:", "/etc/k"
        )
        #expect(configuration.redis == expected)
        #expect(try AppConfiguration.load(configuration.encoded()) == configuration)

        let savedOnly = try AppConfiguration.load(
            Data(#"{"client_id": "x", "tenant_subdomain": "a", "saved_sign_ins": "redis", "redis": {"url": "unix:///run/r.sock"}}"#.utf8))
        #expect(savedOnly.tokenCache == .file && savedOnly.savedSignIns == .redis && savedOnly.redis?.url == "unix:///run/r.sock")
        let plain = try AppConfiguration.load(Data("{\(Self.base)}".utf8))
        #expect(plain.savedSignIns == .file && plain.redis == nil, "the file by default, as before")
    }
}

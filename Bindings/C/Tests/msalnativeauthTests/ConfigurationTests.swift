import Testing
import msalnativeauth

/// The JSON configuration of `msal_na_app_create`, through the exported functions as C calls them:
/// each problem gives `MSAL_NA_ERR_INVALID_CONFIG` (3) and a message naming the field.
struct ConfigurationTests {
    private func create(_ json: String) -> (code: Int32, message: String?, app: OpaquePointer?) {
        var app: OpaquePointer?
        let code = json.withCString { msal_na_app_create($0, &app) }
        let pointer = msal_na_last_error_message()
        defer { _ = msal_na_string_free(pointer) }
        return (code, pointer.map { String(cString: $0) }, app)
    }

    @Test(arguments: [
        ("", "not a JSON object"),
        ("[1]", "not a JSON object"),
        (#"{"tenant_subdomain": "contoso"}"#, "field 'client_id' is missing"),
        (#"{"client_id": " ", "tenant_subdomain": "contoso"}"#, "field 'client_id' must be a non-empty string"),
        (#"{"client_id": "x"}"#, "set exactly one of 'tenant_subdomain' and 'authority'"),
        (#"{"client_id": "x", "tenant_subdomain": "contoso", "authority": "https://contoso.ciamlogin.com"}"#, "set exactly one"),
        (#"{"client_id": "x", "tenant_subdomain": "contoso", "colour": "blue"}"#, "unknown field 'colour'"),
        (#"{"client_id": "x", "tenant_subdomain": "contoso", "challenge_types": []}"#, "field 'challenge_types'"),
        (#"{"client_id": "x", "tenant_subdomain": "contoso", "capabilities": ["mfa"]}"#, "field 'capabilities'"),
        (#"{"client_id": "x", "tenant_subdomain": "contoso", "cache": "disk"}"#, "field 'cache'"),
        (#"{"client_id": "x", "tenant_subdomain": "contoso", "cache": "memory", "cache_file": "/tmp/c.json"}"#, "at most one"),
        (#"{"client_id": "x", "tenant_subdomain": "contoso", "request_timeout_seconds": 0}"#, "request_timeout_seconds"),
        (#"{"client_id": "x", "tenant_subdomain": "not a label"}"#, "not a valid DNS label"),
        (#"{"client_id": "x", "authority": "http://example.com/t"}"#, "http is allowed only for loopback"),
        ("{\"client_id\": \"x\", \"authority\": \"http://127.0.0.1:1/t.onmicrosoft.com\\n\"}", "white space"),
        (#"{"client_id": "x", "tenant_subdomain": "contoso", "cache": "redis"}"#, "needs a 'redis' object"),
        (#"{"client_id": "x", "tenant_subdomain": "contoso", "redis": {"url": "redis://h"}}"#, "only with \"token_cache\": \"redis\""),
        (#"{"client_id": "x", "tenant_subdomain": "contoso", "token_cache": "redis", "cache": "redis"}"#, "at most one of 'token_cache'"),
        (#"{"client_id": "x", "tenant_subdomain": "contoso", "saved_sign_ins": "cloud"}"#, "field 'saved_sign_ins'"),
        (#"{"client_id": "x", "tenant_subdomain": "contoso", "saved_sign_ins": "redis"}"#, "needs a 'redis' object"),
        (
            #"{"client_id": "x", "tenant_subdomain": "contoso", "token_cache": "redis", "redis": {"url": "redis://h", "password_file": "p"}}"#,
            "'redis.password_file' must be an absolute path"
        ),
        (#"{"client_id": "x", "tenant_subdomain": "contoso", "cache": "redis", "redis": {"url": "redis://h", "db": 1}}"#, "'redis.db'"),
        (#"{"client_id": "x", "tenant_subdomain": "contoso", "cache": "redis", "redis": {"url": "redis://:pw@h"}}"#, "password_file"),
        (
            #"{"client_id": "x", "tenant_subdomain": "contoso", "cache": "redis", "redis": {"url": "redis://h", "key_prefix": "a\u0000b"}}"#,
            "'redis.key_prefix'"
        ),
    ])
    func aBadConfigurationNamesItsProblem(json: String, fragment: String) {
        let result = create(json)
        #expect(result.code == 3)
        #expect(result.app == nil)
        #expect(result.message?.contains(fragment) == true, "\(result.message ?? "no message")")
    }

    /// `"saved_sign_ins": "redis"` alone keeps the tokens in the default file: the app is made
    /// without asking the server (here, one nobody listens at), which a token cache on it would.
    @Test func savedSignInsAloneLeaveTheTokensInTheFile() {
        let json =
            #"{"client_id": "x", "tenant_subdomain": "contoso", "cache": "memory", "saved_sign_ins": "redis", "redis": {"url": "redis://127.0.0.1:1"}}"#
        let result = create(json)
        #expect(result.code == 0, "\(result.message ?? "")")
        #expect(msal_na_app_free(result.app) == 0)
        let onRedis = create(
            #"{"client_id": "x", "tenant_subdomain": "contoso", "token_cache": "redis", "redis": {"url": "redis://127.0.0.1:1"}}"#)
        #expect(onRedis.code == 47, "the token cache on a server that is down: MSAL_NA_ERR_REDIS_UNAVAILABLE")
    }

    @Test func theDemoConfigurationFormatIsAccepted() {
        let json = #"""
            {"client_id": "00001111-aaaa-2222-bbbb-3333cccc4444", "tenant_subdomain": "contoso",
             "challenge_types": ["oob"], "capabilities": [], "cache": "memory", "request_timeout_seconds": 5,
             "api1": {"url": "https://api.contoso.com/a", "scopes": ["api://a/A.Read"]}}
            """#
        let result = create(json)
        #expect(result.code == 0)
        #expect(result.message == nil)
        #expect(msal_na_app_free(result.app) == 0)
        #expect(msal_na_app_free(result.app) == 2) // twice: MSAL_NA_ERR_INVALID_HANDLE
    }
}

import Foundation
import NativeAuthEmulator
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An in-process emulator over loopback with a configuration file for it in a `ToolHome`.
struct CLIEmulator {
    static let todolist = "api://emulator/todolist/ToDoList.Read"
    static let profile = "api://emulator/profile/Profile.Read"
    static let adaPassword = "Analytical-Engine-1843"
    static let alanPassword = "Turing-Machine-1936"

    let server: EmulatorServer
    let home: ToolHome
    let config: String

    /// `capabilities` nil: the configuration file's default (MFA and registration).
    init(capabilities: [String]? = nil) throws {
        server = try LiveEmulator.start()
        home = try ToolHome()
        var object: [String: Any] = ["client_id": server.router.seed.apps[0].clientId, "authority": server.authority]
        object["capabilities"] = capabilities
        config = try home.writeConfig(object)
    }

    /// `native-auth --config FILE ARGUMENTS…`.
    func run(_ arguments: [String], input: String = "") throws -> ToolResult {
        try home.run(["--config", config] + arguments, input: input)
    }

    /// Ada signed in, then a plain `token` run under the dynamic loader's own log (LD_DEBUG=files, on
    /// its standard error), which names every object the process maps and how; later runs keep the log.
    func tokenUnderTheLoadersLog() throws -> ToolResult {
        let login = try run(["login", "--username", "ada@example.com", "--password", Self.adaPassword, "--scope", Self.todolist])
        #expect(login.status == 0, "\(login)")
        home.extraEnvironment["LD_DEBUG"] = "files"
        let token = try run(["token", "--scope", Self.todolist])
        #expect(token.status == 0 && token.stdout.split(separator: ".").count == 3, "\(token.status) \(token.stdout)")
        #expect(token.stderr.contains("file=libc.so.6"), "the loader's log is there")
        return token
    }

    func start(_ arguments: [String]) throws -> RunningTool {
        try home.start(["--config", config] + arguments)
    }

    func lastCode(_ username: String) async throws -> String {
        try await LiveEmulator.lastCode(server, username)
    }

    /// The app's directory under XDG_STATE_HOME.
    var appDirectory: String { home.stateHome + "/native-auth/" + server.router.seed.apps[0].clientId }

    /// How many token requests the emulator has answered.
    func tokenRequests() async throws -> Int {
        let (_, data) = try await LiveEmulator.get(server.baseURL + "/_emulator/requests")
        let list = (try JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
        return list.filter { ($0["path"] as? String)?.hasSuffix("/oauth2/v2.0/token") == true }.count
    }

    /// The sample API's status for a bearer token.
    func callAPI(_ path: String, token: String) async throws -> Int {
        var request = URLRequest(url: URL(string: server.baseURL + path)!)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as! HTTPURLResponse).statusCode
    }
}

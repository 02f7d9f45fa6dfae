import Foundation

/// The test hooks under `/_emulator/` (not part of the real API; see docs/emulator.md).
extension EmulatorRouter {
    func handleHook(_ request: EmulatorRequest, now: Date) -> EmulatorResponse {
        let hook = String(request.path.dropFirst("/_emulator".count))
        switch (request.method, hook) {
        case ("GET", "/mailbox"):
            guard let username = request.query["username"], !username.isEmpty else { return hookError(400, "username is required") }
            let messages = world.withLock { $0.mailbox[username.lowercased()] ?? [] }
            return .json(
                200,
                messages.map { mail in
                    var entry: [String: Any] = [
                        "to": mail.to, "code": mail.code, "purpose": mail.purpose.rawValue, "sent_at": Self.iso8601(mail.sentAt),
                        "channel": mail.channel, "target": mail.target,
                    ]
                    if let api = mail.api { entry["api"] = api }
                    return entry
                })
        case ("POST", "/users"):
            return addUser(request)
        case ("DELETE", "/users"):
            guard let username = request.query["username"], !username.isEmpty else { return hookError(400, "username is required") }
            let removed = world.withLock { world -> Bool in
                world.refreshTokens = world.refreshTokens.filter { $0.value.username.lowercased() != username.lowercased() }
                return world.users.removeValue(forKey: username.lowercased()) != nil
            }
            return removed ? EmulatorResponse(status: 204) : hookError(404, "no user \(username)")
        case ("DELETE", "/sessions"):
            guard let username = request.query["username"], !username.isEmpty else { return hookError(400, "username is required") }
            let (revoked, ended) = world.withLock { world -> (Int, Int) in
                let before = world.refreshTokens.count
                world.refreshTokens = world.refreshTokens.filter { $0.value.username.lowercased() != username.lowercased() }
                return (before - world.refreshTokens.count, endBrowserSessions(of: username, world: &world))
            }
            return .json(200, ["revoked_refresh_tokens": revoked, "ended_browser_sessions": ended])
        case ("POST", "/faults"):
            return addFaults(request)
        case ("DELETE", "/faults"):
            world.withLock { $0.faults.removeAll() }
            return EmulatorResponse(status: 204)
        case ("POST", "/clock"):
            guard let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any],
                let seconds = (object["advance_seconds"] as? NSNumber)?.doubleValue, seconds.isFinite, seconds >= 0
            else { return hookError(400, "expected {\"advance_seconds\": N} with N >= 0") }
            let offset = world.withLock { world -> TimeInterval in
                world.clockOffset += seconds
                return world.clockOffset
            }
            return .json(200, ["now": Self.iso8601(self.now()), "offset_seconds": offset])
        case ("GET", "/requests"):
            let log = world.withLock { $0.requestLog }
            return .json(
                200,
                log.map { entry -> [String: Any] in
                    var item: [String: Any] = [
                        "method": entry.method, "path": entry.path, "endpoint": entry.endpoint, "fields": entry.fields,
                        "status": entry.status, "at": Self.iso8601(entry.at),
                    ]
                    item["client_request_id"] = entry.clientRequestId ?? NSNull()
                    return item
                })
        case ("DELETE", "/requests"):
            world.withLock { $0.requestLog.removeAll() }
            return EmulatorResponse(status: 204)
        case ("GET", "/v2"), ("POST", "/v2"):
            return v2Hook(request)
        case (_, "/mailbox"), (_, "/users"), (_, "/faults"), (_, "/clock"), (_, "/requests"), (_, "/sessions"), (_, "/v2"):
            return hookError(405, "method \(request.method) not allowed on \(request.path)")
        default:
            return hookError(404, "no test hook at \(request.path)")
        }
    }

    func hookError(_ status: Int, _ message: String) -> EmulatorResponse {
        .json(status, ["error": status == 404 ? "not_found" : "invalid_request", "error_description": message])
    }

    private func addUser(_ request: EmulatorRequest) -> EmulatorResponse {
        guard request.body.count <= configuration.maxRequestBodyBytes,
            let user = try? JSONDecoder().decode(Seed.User.self, from: request.body)
        else {
            return hookError(
                400,
                "expected a JSON user {\"username\", \"password\"?, \"attributes\"?, \"object_id\"?, \"strong_auth_methods\"?, \"mfa_required\"?}"
            )
        }
        guard Self.isEmailAddress(user.username) else { return hookError(400, "username must be an email address") }
        if let problem = Self.strongAuthMethodsProblem(user.strongAuthMethods) ?? user.v2FieldsProblem { return hookError(400, problem) }
        let record = UserRecord(user, passwordHashIterations: configuration.passwordHashIterations)
        let added = world.withLock { world -> Bool in
            guard world.users[user.username.lowercased()] == nil else { return false }
            world.users[user.username.lowercased()] = record
            return true
        }
        return added
            ? .json(201, ["username": record.username, "object_id": record.objectId]) : hookError(409, "user \(user.username) exists")
    }

    private func addFaults(_ request: EmulatorRequest) -> EmulatorResponse {
        guard let list = (try? JSONSerialization.jsonObject(with: request.body)) as? [[String: Any]] else {
            return hookError(400, "expected a JSON list of faults")
        }
        var faults: [Fault] = []
        for item in list {
            guard let endpoint = item["endpoint"] as? String, !endpoint.isEmpty else {
                return hookError(400, "each fault needs an endpoint")
            }
            var body: Fault.BodyKind?
            if let raw = item["body"] as? String {
                guard let kind = Fault.BodyKind(rawValue: raw) else {
                    return hookError(400, "body must be truncated, invalid_json, empty, html or oversize")
                }
                body = kind
            }
            let count = (item["count"] as? NSNumber)?.intValue ?? 1
            let status = (item["status"] as? NSNumber)?.intValue
            if let status, !(100...599).contains(status) { return hookError(400, "status must be an HTTP status") }
            let retryAfter = (item["retry_after"] as? NSNumber)?.stringValue ?? (item["retry_after"] as? String)
            let location = item["location"] as? String
            if location != nil, !(status.map { (300...399).contains($0) } ?? false) {
                return hookError(400, "location needs a 3xx status")
            }
            faults.append(
                Fault(
                    endpoint: endpoint, status: status, retryAfter: retryAfter,
                    delayMilliseconds: max(0, (item["delay_ms"] as? NSNumber)?.intValue ?? 0), body: body,
                    dropConnection: (item["drop_connection"] as? Bool) ?? false, location: location,
                    remaining: count <= 0 ? nil : count))
        }
        world.withLock { $0.faults.append(contentsOf: faults) }
        return .json(200, ["added": faults.count])
    }

    /// Applies the first fault matching `endpoint`, if any, around the real handler.
    func withFaults(
        endpoint: String, request: EmulatorRequest, now: Date, correlationId: String,
        _ real: () -> EmulatorResponse
    ) -> EmulatorResponse {
        let fault: Fault? = world.withLock { world in
            guard let index = world.faults.firstIndex(where: { $0.matches(endpoint, fullPath: request.path) }) else { return nil }
            let fault = world.faults[index]
            if let remaining = fault.remaining {
                if remaining <= 1 { world.faults.remove(at: index) } else { world.faults[index].remaining = remaining - 1 }
            }
            return fault
        }
        guard let fault else { return real() }
        if fault.dropConnection {
            var dropped = EmulatorResponse(status: 0)
            dropped.dropConnection = true
            dropped.delayMilliseconds = fault.delayMilliseconds
            return dropped
        }
        var response: EmulatorResponse
        if let status = fault.status, let location = fault.location {
            response = EmulatorResponse(status: status)
            response.headers["Location"] = location
        } else if let status = fault.status, endpoint.hasPrefix("/api/"), !seed.apis.contains(where: { $0.path == request.path }) {
            // A native auth V2 interaction route: the nested HAL shape (V2/HALAnswer.swift).
            let code = status == 429 ? "tooManyRequests" : status >= 500 ? "serverError" : "invalidRequest"
            let context = RequestContext(request: request, now: now, correlationId: correlationId, endpoint: endpoint)
            response = halError(code, nil, 90033, "Injected fault (HTTP \(status)).", status: status, context: context).response
        } else if let status = fault.status {
            let error = status == 429 ? "too_many_requests" : status >= 500 ? "server_error" : "invalid_request"
            response = .json(
                status,
                [
                    "error": error, "error_description": "AADSTS90033: Injected fault (HTTP \(status)).",
                    "error_codes": [90033], "correlation_id": correlationId,
                ])
        } else {
            response = real()
        }
        if let retryAfter = fault.retryAfter { response.headers["Retry-After"] = retryAfter }
        switch fault.body {
        case .truncated?: response.body = response.body.prefix(max(1, response.body.count / 2))
        case .invalidJSON?: response.body = Data("{\"error\": \"server_error\", ".utf8) + Data("oops".utf8)
        case .empty?: response.body = Data()
        case .html?:
            response.body = Data("<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>".utf8)
            response.headers["Content-Type"] = "text/html"
        case .oversize?:
            response.body = Data("{\"padding\":\"".utf8) + Data(repeating: UInt8(ascii: "x"), count: 2 << 20) + Data("\"}".utf8)
        case nil: break
        }
        response.delayMilliseconds = fault.delayMilliseconds
        return response
    }

    static func iso8601(_ date: Date) -> String {
        timestamp(date).replacingOccurrences(of: " ", with: "T")
    }
}

import Foundation

/// The emulator's world at start: one tenant, its apps, users and protected APIs.
/// Loaded from JSON (`--seed FILE`) with the field names below, or `Seed.demo`.
public struct Seed: Codable, Sendable {
    /// The tenant the emulator plays: its names in the authority and the tokens.
    public struct Tenant: Codable, Sendable {
        /// The subdomain: the authority is `…/{subdomain}.onmicrosoft.com` (the tenant id works too).
        public var subdomain: String
        /// The tenant id (a GUID): the `tid` of tokens and part of the issuer.
        public var id: String
    }

    /// The tenant.
    public var tenant: Tenant
    /// The app registrations; at least one.
    public var apps: [App]
    /// The accounts present at start (more can be added with `POST /_emulator/users`).
    public var users: [User]
    /// The protected web APIs the emulator serves.
    public var apis: [API]

    /// A seed of these parts.
    public init(tenant: Tenant, apps: [App], users: [User], apis: [API]) {
        self.tenant = tenant
        self.apps = apps
        self.users = users
        self.apis = apis
    }

    /// Parses a seed file; errors name the field that is wrong.
    public static func load(from data: Data) throws -> Seed {
        do {
            return try JSONDecoder().decode(Seed.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw EmulatorError(
                "seed: missing field '\((context.codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: "."))'")
        } catch let DecodingError.typeMismatch(_, context) {
            throw EmulatorError("seed: wrong type at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'")
        } catch let DecodingError.dataCorrupted(context) {
            throw EmulatorError(
                "seed: invalid value at '\(context.codingPath.map(\.stringValue).joined(separator: "."))': \(context.debugDescription)")
        } catch {
            throw EmulatorError("seed: not valid JSON")
        }
    }

    /// The built-in demo world.
    public static let demo = Seed(
        tenant: Tenant(subdomain: "emulator", id: "5c3b1c2e-8a4f-4f5e-9d7a-0e6b2a9c1d00"),
        apps: [
            App(
                clientId: "11111111-1111-4111-8111-111111111111", name: "Demo app (email + password)", signUpMethod: .password,
                attributes: [
                    Attribute(name: "displayName", regex: "^.{1,64}$", label: "Display name"),
                    Attribute(name: "city", required: false, label: "City"),
                ], blockedContacts: ["+15550199"]),
            App(
                clientId: "22222222-2222-4222-8222-222222222222", name: "Demo app (email code only)", signUpMethod: .otp,
                attributes: [Attribute(name: "displayName", regex: "^.{1,64}$", label: "Display name")], blockedContacts: ["+15550199"]),
        ],
        users: [
            User(
                username: "ada@example.com", password: "Analytical-Engine-1843", objectId: "a1a1a1a1-0000-4000-8000-000000000001",
                attributes: ["displayName": "Ada Lovelace"]),
            User(
                username: "grace@example.com", password: nil, objectId: "a1a1a1a1-0000-4000-8000-000000000002",
                attributes: ["displayName": "Grace Hopper"]),
            // MFA with two registered methods.
            User(
                username: "alan@example.com", password: "Turing-Machine-1936", objectId: "a1a1a1a1-0000-4000-8000-000000000003",
                attributes: ["displayName": "Alan Turing"],
                strongAuthMethods: [
                    StrongAuthMethod(id: "7f1c1b0e-0000-4000-8000-00000000a001", channel: .email, target: "alan.backup@example.net"),
                    StrongAuthMethod(id: "7f1c1b0e-0000-4000-8000-00000000a002", channel: .sms, target: "+15550100"),
                ], mfaRequired: true),
            // MFA required but no method yet: registers one (JIT) at the first sign-in.
            User(
                username: "katherine@example.com", password: "Orbital-Mechanics-1962", objectId: "a1a1a1a1-0000-4000-8000-000000000004",
                attributes: ["displayName": "Katherine Johnson"], mfaRequired: true),
            // Native auth V2 (docs/emulator.md#native-auth-v2-experimental): a choice of first factors.
            User(
                username: "barbara@example.com", password: "Substitution-Principle-1987", objectId: "a1a1a1a1-0000-4000-8000-000000000005",
                attributes: ["displayName": "Barbara Liskov"], firstFactors: [.password, .email]),
            // V2: recovery by email or SMS, MFA by email.
            User(
                username: "margaret@example.com", password: "Apollo-Guidance-1969", objectId: "a1a1a1a1-0000-4000-8000-000000000006",
                attributes: ["displayName": "Margaret Hamilton"],
                strongAuthMethods: [
                    StrongAuthMethod(id: "7f1c1b0e-0000-4000-8000-00000000b001", channel: .email, target: "margaret.backup@example.net")
                ], mfaRequired: true,
                recoveryMethods: [
                    RecoveryMethod(channel: .email, target: "margaret@example.com"), RecoveryMethod(channel: .sms, target: "+15550101"),
                ]),
            // V2: always the browser (V1: the 200 redirect).
            User(
                username: "hedy@example.com", password: "Frequency-Hopping-1942", objectId: "a1a1a1a1-0000-4000-8000-000000000007",
                attributes: ["displayName": "Hedy Lamarr"], browserOnly: true),
        ],
        apis: [
            API(
                name: "todolist", appId: "33333333-3333-4333-8333-333333333333", identifierUri: "api://emulator/todolist",
                scopes: ["ToDoList.Read", "ToDoList.ReadWrite"], path: "/api/todolist", requiredScope: "ToDoList.Read"),
            API(
                name: "profile", appId: "44444444-4444-4444-8444-444444444444", identifierUri: "api://emulator/profile/",
                scopes: ["Profile.Read"], path: "/api/profile", requiredScope: "Profile.Read"),
        ])
}

extension Seed: CustomStringConvertible {
    /// A one-line summary: the tenant's subdomain and how many apps, users and APIs.
    public var description: String { "Seed(tenant: \(tenant.subdomain), apps: \(apps.count), users: \(users.count), apis: \(apis.count))" }
}

extension Seed.Tenant {
    enum CodingKeys: String, CodingKey { case subdomain, id }
}

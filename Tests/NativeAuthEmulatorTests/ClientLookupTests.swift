import Foundation
import TestSupport
import Testing

@testable import NativeAuthEmulator

/// Client ids are compared case-insensitively wherever the emulator looks an app up
/// (`Seed.app(clientId:)`), as the service compares them.
@Suite struct ClientLookupTests {
    typealias H = EmulatorHarness
    typealias C = V2TestClient

    /// A seed whose first app has an id with letters (the demo's ids are digits only).
    static func seed() -> Seed {
        var seed = Seed.demo
        seed.apps[0].clientId = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"
        return seed
    }

    @Test func theSeedFindsAnAppWhateverTheCaseOfItsId() {
        let seed = Self.seed()
        #expect(seed.app(clientId: "AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE")?.clientId == "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee")
        #expect(seed.app(clientId: "00000000-0000-0000-0000-000000000000") == nil)
    }

    /// The V2 entry accepts the id in capitals, and a code grant in capitals reaches the code check
    /// (an unknown code) rather than the client check.
    @Test func requestsNamingTheClientInCapitalsAreServed() throws {
        let h = try H(seed: Self.seed())
        let shouting = "AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE"
        let entry = C(h).entry(clientId: shouting)
        #expect(entry.status == 401 && entry.token != nil)
        let grant = C(h).redeem("no-such-code", clientId: shouting)
        #expect(grant.status == 400 && grant["error"] as? String == "invalid_grant")
    }
}

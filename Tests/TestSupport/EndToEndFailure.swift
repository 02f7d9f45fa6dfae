import Foundation
import Synchronization
import Testing

@testable import MSAL
@testable import NativeAuthEmulator

struct EndToEndFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

import Foundation
import MSAL

/// Each operation of the C interface once: checks its arguments (synchronously, on the caller's
/// thread) and returns the work that calls the SDK's `async` API and turns its answer into an
/// `Outcome`. The `@_cdecl` functions in `Exports*.swift` wrap each in a callback and a `_wait` form.
enum Operations {
    typealias Work = Dispatcher.Work

    // MARK: Handles

    static func app(_ handle: OpaquePointer?) throws(InterfaceError) -> AppEntry {
        guard case .app(let entry) = try object(handle, "app") else { throw wrongKind("app", "an application") }
        return entry
    }

    static func state(_ handle: OpaquePointer?) throws(InterfaceError) -> FlowState {
        guard case .state(let state) = try object(handle, "state") else { throw wrongKind("state", "a flow state") }
        return state
    }

    static func account(_ handle: OpaquePointer?) throws(InterfaceError) -> AccountEntry {
        guard case .account(let entry) = try object(handle, "account") else { throw wrongKind("account", "an account") }
        return entry
    }

    static func result(_ handle: OpaquePointer?) throws(InterfaceError) -> Outcome {
        guard case .result(let outcome) = try object(handle, "result") else { throw wrongKind("result", "a result") }
        return outcome
    }

    private static func object(_ handle: OpaquePointer?, _ name: String) throws(InterfaceError) -> HandleRegistry.Object {
        guard let handle else { throw InterfaceError(.invalidArgument, "'\(name)' is NULL") }
        guard let object = HandleRegistry.shared.lookup(handle) else {
            throw InterfaceError(.invalidHandle, "'\(name)' is not a live handle (already freed, or never one)")
        }
        return object
    }

    private static func wrongKind(_ name: String, _ expected: String) -> InterfaceError {
        InterfaceError(.invalidHandle, "'\(name)' is a live handle of another kind, not \(expected)")
    }

    /// Space-separated scopes (NULL or empty: none).
    static func scopes(_ pointer: UnsafePointer<CChar>?) throws(InterfaceError) -> [String]? {
        guard let text = try CStrings.read(pointer, "scopes", optional: true) else { return nil }
        let list = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        return list.isEmpty ? nil : list
    }

    /// A JSON object of sign-up attributes (NULL: none).
    static func attributes(_ pointer: UnsafePointer<CChar>?, optional: Bool) throws(InterfaceError) -> [String: Any]? {
        guard let text = try CStrings.read(pointer, "attributes_json", optional: optional) else { return nil }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            throw InterfaceError(.invalidArgument, "'attributes_json' is not a JSON object")
        }
        return object
    }

    /// The error for a step on a state of a kind it does not apply to.
    static func wrongState(_ operation: String, _ state: FlowState) -> InterfaceError {
        InterfaceError(.wrongState, "\(operation) does not apply to a state of kind \(state.kind.rawValue) (see msal_na_state_kind)")
    }

    /// The SDK's parameter classes are mutable and not `Sendable`; each is made here, filled, and
    /// only read by the one task it is handed to.
    struct UncheckedParameters<Value>: @unchecked Sendable {
        let value: Value
    }
}

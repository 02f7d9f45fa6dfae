import Foundation

/// A sign-up asks for attributes the app did not give: `submitAttributes`.
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthAttributesRequiredState: MSALNativeAuthState, @unchecked Sendable {
    /// The attributes the service asks for.
    public let attributes: [MSALNativeAuthRequiredAttribute]
    let form: V2AttributeForm

    init(_ core: V2StateCore, attributes: [MSALNativeAuthRequiredAttribute], form: V2AttributeForm) {
        self.attributes = attributes
        self.form = form
        super.init(core)
    }

    /// A short description of the state, without personal data.
    public override var description: String { "attributesRequired (\(attributes.count) attributes)" }
}

extension MSALNativeAuthAttributesRequiredState {
    /// The state asking for `descriptors`, submitted to `form`.
    convenience init(_ core: V2StateCore, _ descriptors: [V2AttributeDescriptor], form: V2AttributeForm) {
        self.init(core, attributes: descriptors.map(MSALNativeAuthRequiredAttribute.init), form: form)
    }

    /// Submits attribute values by id (with the ones the SDK already knows). Values: strings, booleans,
    /// numbers, arrays of strings; others are dropped with a warning. Nothing (`[:]`) is a submit too:
    /// the service decides whether anything it needs is missing.
    public func submitAttributes(_ attributes: [String: Any]) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        var values: [String: V2AttributeValue] = [:]
        for (name, value) in attributes {
            guard let converted = V2AttributeValue(value) else {
                core.flow.controller.client.environment.logger.warning("Ignored the sign-up attribute '\(String(name.prefix(60)))'")
                continue
            }
            values[name] = converted
        }
        return try await core.step { $0.submitAttributes(values, form: form, on: core.continuation) }
    }

    /// Submits attribute values and reports to `delegate`.
    public func submitAttributes(_ attributes: [String: Any], delegate: any MSALNativeAuthFlowDelegate) {
        nonisolated(unsafe) let attributes = attributes
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in try await self.submitAttributes(attributes) }
    }
}

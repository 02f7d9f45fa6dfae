import Foundation

/// The sign-up needs user attributes. Mirrors MSAL's `SignUpAttributesRequiredState`.
public final class SignUpAttributesRequiredState: Sendable {
    package let controller: SignUpController
    package let username: String
    package let continuationToken: String
    package let correlationId: UUID
    package let lifecycle: StateLifecycle

    package init(controller: SignUpController, username: String, continuationToken: String, correlationId: UUID, issuedAt: Date? = nil) {
        lifecycle = StateLifecycle(controller.client, restoredIssuedAt: issuedAt)
        self.controller = controller
        self.username = username
        self.continuationToken = continuationToken
        self.correlationId = correlationId
    }

    /// Submits attributes by programmatic name (values JSON-serialisable).
    public func submitAttributes(attributes: [String: Any]) async throws(AttributesRequiredError) -> SignUpAttributesRequiredResult {
        let json = Result { () throws(SetupError) in try SignUpAttributes.json(attributes) }
        return try await controller.submitAttributes(json, on: self)
    }

    /// Submits attributes and reports to `delegate` on the main actor. Values that cannot be JSON are
    /// reported to `onSignUpAttributesRequiredError(error:)` as a general error, without asking the server.
    public func submitAttributes(attributes: [String: Any], delegate: any SignUpAttributesRequiredDelegate) {
        let json = Result { () throws(SetupError) in try SignUpAttributes.json(attributes) }
        withDelegateOnMainActor(delegate) { [self] delegate in
            do throws(AttributesRequiredError) {
                switch try await controller.submitAttributes(json, on: self) {
                case .completed(let next): delegate.onSignUpCompleted(newState: next)
                case .attributesRequired(let required, let next):
                    delegate.onSignUpAttributesRequired(attributes: required, newState: next)
                case .attributesInvalid(let names, let next):
                    delegate.onSignUpAttributesInvalid(attributeNames: names, newState: next)
                }
            } catch {
                delegate.onSignUpAttributesRequiredError(error: error)
            }
        }
    }
}

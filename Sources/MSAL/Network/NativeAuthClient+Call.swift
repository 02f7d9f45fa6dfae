import Foundation

/// One native-auth request from the flows' point of view: post it, then decode the answer by status.
extension NativeAuthClient {
    /// Decodes an exchange by status (docs/protocol.md#response-handling-by-status): 200 → redirect or success body, 400/401 → error
    /// envelope, anything else → failure. Every decoding problem is a failure with a message.
    /// `honoursRedirect: false` is for `/signup/v1.0/continue`, where MSAL treats any 200 as
    /// completion, a redirect body included (docs/protocol.md#redirect-answer).
    package func decode<Success: NativeAuthSuccessBody>(
        _ exchange: NativeAuthExchange, as type: Success.Type, honoursRedirect: Bool = true
    ) -> NativeAuthOutcome<Success> {
        let response: HTTPTransportResponse
        switch exchange.result {
        case .failure(let failure): return .failure(failure)
        case .success(let value): response = value
        }
        switch response.status {
        case 200:
            if honoursRedirect, let reason = RedirectProbe.reason(in: response.body) {
                return .redirect(reason: reason)
            }
            do {
                return .success(try Success(json: response.body))
            } catch {
                environment.logger.warning("Undecodable success body: \(error.message)")
                return .failure(MSALNativeAuthNetworkFailure(kind: .invalidResponse, message: error.message))
            }
        case 400, 401:
            do {
                return .apiError(try NativeAuthAPIError(json: response.body))
            } catch {
                environment.logger.warning("Undecodable error body (HTTP \(response.status)): \(error.message)")
                return .failure(
                    MSALNativeAuthNetworkFailure(
                        kind: .invalidResponse, message: "HTTP \(response.status): \(error.message)"))
            }
        default:
            return .failure(
                MSALNativeAuthNetworkFailure(
                    kind: .unexpectedStatus(response.status), message: "The server answered HTTP \(response.status)"))
        }
    }

    /// Posts and decodes in one step; returns the correlation id the flow continues with.
    package func call<Success: NativeAuthSuccessBody>(
        _ endpoint: NativeAuthEndpoint, _ fields: [(String, String?)], correlationId: UUID, expecting type: Success.Type,
        honoursRedirect: Bool = true
    ) async -> (outcome: NativeAuthOutcome<Success>, correlationId: UUID) {
        let exchange = await post(endpoint, fields: fields, correlationId: correlationId)
        return (decode(exchange, as: type, honoursRedirect: honoursRedirect), exchange.correlationId)
    }
}

import Foundation
import MSAL
import NativeAuthTesting
import Testing

@testable import MSAL

final class HeaderInterceptor: MSALNativeAuthRequestInterceptor {
    let headers: [String: String]?
    init(headers: [String: String]?) { self.headers = headers }
    func addAdditionalHeaderFields(_ requestUrl: URL?, completionBlock: @escaping @Sendable ([String: String]?) -> Void) {
        completionBlock(headers)
    }
}

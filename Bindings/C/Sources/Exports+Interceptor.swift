// The request interceptor of Bindings/C/include/msal_native_auth.h ("Request interceptor"): an
// application whose native-auth requests carry the app's own x- headers. See RequestInterceptorBridge.swift.

@_cdecl("msal_na_app_create_with_interceptor")
public func msal_na_app_create_with_interceptor(
    _ configJSON: CString?, _ interceptor: RequestInterceptorCallback?, _ userData: UnsafeMutableRawPointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    out?.pointee = nil
    return guarded { () throws(InterfaceError) in
        guard let interceptor else { throw InterfaceError(.invalidArgument, "'interceptor' is NULL (use msal_na_app_create)") }
        guard let out else { throw InterfaceError(.invalidArgument, "'out_app' is NULL") }
        let configuration = try InterfaceConfiguration.parse(try CStrings.required(configJSON, "config_json"))
        let bridge = RequestInterceptorBridge(callback: interceptor, userData: userData)
        let application = try configuration.makeApplication(interceptor: bridge)
        out.pointee = HandleRegistry.shared.insert(
            .app(AppEntry(application: application, configuration: configuration, interceptor: bridge)))
    }
}

@_cdecl("msal_na_headers_add")
public func msal_na_headers_add(_ headers: OpaquePointer?, _ name: CString?, _ value: CString?) -> Int32 {
    guarded { () throws(InterfaceError) in
        let collector = try HeaderCollector.lookup(headers)
        try collector.add(name: try CStrings.required(name, "name"), value: try CStrings.required(value, "value"))
    }
}

// `import MSAL` brings Foundation, as MSAL's umbrella header does on Apple platforms: a file that
// imports only `MSAL` can declare `class Configuration: NSObject` or use `URL`. On Linux the URL
// loading types (`URLRequest`, `URLSession`) live in FoundationNetworking; it comes along too, so
// such a file reads the same as on Apple platforms.
@_exported import Foundation

#if canImport(FoundationNetworking)
    @_exported import FoundationNetworking
#endif

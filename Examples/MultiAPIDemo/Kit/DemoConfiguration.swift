@_exported import NativeAuthAppConfig

/// The `--config FILE` for a real tenant: the format the command-line tool reads too, parsed in
/// Sources/NativeAuthAppConfig/AppConfiguration.swift.
public typealias DemoConfiguration = AppConfiguration

/// A protected API the screen calls.
public typealias DemoAPI = AppConfiguration.API

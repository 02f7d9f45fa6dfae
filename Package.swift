// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "msal-native-auth-linux",
    products: [
        // The SDK. Foundation only: an app that depends on this product alone builds without
        // ncurses, OpenSSL or libmicrohttpd on the machine.
        .library(name: "MSAL", targets: ["MSAL"]),
        // Test doubles for apps that embed the SDK: a strict stub transport and recording delegates.
        .library(name: "NativeAuthTesting", targets: ["NativeAuthTesting"]),
    ],
    targets: [
        .target(name: "MSAL"),
        .target(name: "NativeAuthTesting", dependencies: ["MSAL"]),
        .testTarget(
            name: "MSALTests",
            dependencies: ["MSAL", "NativeAuthTesting"],
            exclude: ["Golden"]
        ),
    ]
)

import Foundation
import Testing

@testable import MSAL

/// What `signInAddressHandler` gets (docs/usage.md#signing-in-over-ssh): the short address, the
/// ports to forward and the `ssh -L` line, for an authority elsewhere and one on this machine's
/// loopback, from what `$SSH_CONNECTION`, `$USER` and `$LOGNAME` say.
@Suite struct MSALSignInAddressTests {
    private static let authorize = URL(string: "https://login.example/contoso.onmicrosoft.com/oauth2/v2.0/authorize?client_id=c")!
    private static let overSSH = ["SSH_CONNECTION": "198.51.100.7 50122 203.0.113.5 22", "USER": "ada"]

    private func address(
        short: String = "http://localhost:43123/", authority: String = "https://login.example/contoso.onmicrosoft.com",
        _ environment: [String: String] = overSSH
    ) -> MSALSignInAddress {
        MSALSignInAddress(
            authorizationURL: Self.authorize, shortURL: URL(string: short)!, authority: URL(string: authority)!, environment: environment)
    }

    @Test func anAuthorityElsewhereNeedsOnlyTheListenersPort() {
        let address = address()
        #expect(address.authorizationURL == Self.authorize)
        #expect(address.shortURL.absoluteString == "http://localhost:43123/")
        #expect(address.port == 43123)
        #expect(address.forwardedPorts == [43123])
        #expect(address.sshDestination == "ada@203.0.113.5")
        #expect(address.sshCommand == "ssh -L 43123:localhost:43123 ada@203.0.113.5")
    }

    @Test func aLoopbackAuthorityIsForwardedTooInTheSameLine() {
        let emulator = address(authority: "http://127.0.0.1:40123/emulator.onmicrosoft.com")
        #expect(emulator.forwardedPorts == [43123, 40123])
        #expect(emulator.sshCommand == "ssh -L 43123:localhost:43123 -L 40123:127.0.0.1:40123 ada@203.0.113.5")
        let named = address(authority: "http://localhost/emulator.onmicrosoft.com")
        #expect(named.forwardedPorts == [43123, 80], "http's port when the authority has none")
        #expect(named.sshCommand == "ssh -L 43123:localhost:43123 -L 80:localhost:80 ada@203.0.113.5")
        let six = address(short: "http://[::1]:43123/", authority: "http://[::1]:8080/t")
        #expect(six.sshCommand == "ssh -L 43123:[::1]:43123 -L 8080:[::1]:8080 ada@203.0.113.5")
        #expect(address(authority: "https://login.microsoftonline.com/t").forwardedPorts == [43123])
    }

    @Test func withoutSSHConnectionTheDestinationIsAPlaceholder() {
        for environment in [
            ["USER": "ada"],
            ["SSH_CONNECTION": "", "USER": "ada"],
            ["SSH_CONNECTION": "198.51.100.7 50122 203.0.113.5", "USER": "ada"],
            ["SSH_CONNECTION": "198.51.100.7 50122 not-an-address 22", "USER": "ada"],
            ["SSH_CONNECTION": "198.51.100.7 50122 203.0.113.5;rm 22", "USER": "ada"],
            ["SSH_CONNECTION": "198.51.100.7 50122 203.0.113.5 0", "USER": "ada"],
            ["SSH_CONNECTION": "198.51.100.7 50122 203.0.113.5 ssh", "USER": "ada"],
            // Through a tunnel: the server saw itself; the person cannot use that address.
            ["SSH_CONNECTION": "127.0.0.1 50122 127.0.0.1 22", "USER": "ada"],
            ["SSH_CONNECTION": "::1 50122 ::1 22", "USER": "ada"],
        ] {
            let address = address(environment)
            #expect(address.sshDestination == nil, "\(environment)")
            #expect(address.sshCommand == "ssh -L 43123:localhost:43123 user@host", "\(environment)")
        }
        #expect(MSALSignInAddress.sshDestinationPlaceholder == "user@host")
    }

    @Test func theSSHServersPortUserAndIPv6Address() {
        let port = address(["SSH_CONNECTION": "198.51.100.7 50122 203.0.113.5 2222", "USER": "ada"])
        #expect(port.sshCommand == "ssh -L 43123:localhost:43123 -p 2222 ada@203.0.113.5")
        let six = address(["SSH_CONNECTION": "2001:db8::7 50122 2001:db8::5 22", "LOGNAME": "grace"])
        #expect(six.sshDestination == "grace@2001:db8::5")
        #expect(six.sshCommand == "ssh -L 43123:localhost:43123 grace@2001:db8::5")
        let nobody = address(["SSH_CONNECTION": "198.51.100.7 50122 203.0.113.5 22"])
        #expect(nobody.sshDestination == "203.0.113.5" && nobody.sshCommand == "ssh -L 43123:localhost:43123 203.0.113.5")
        let empty = address(["SSH_CONNECTION": "198.51.100.7 50122 203.0.113.5 22", "USER": "", "LOGNAME": "alan"])
        #expect(empty.sshDestination == "alan@203.0.113.5")
    }

    /// The line is meant to be pasted into a shell: a user name the shell would read otherwise is quoted.
    @Test func aUserNameTheShellWouldSplitIsQuoted() {
        let odd = address(["SSH_CONNECTION": "198.51.100.7 50122 203.0.113.5 22", "USER": "o'neil $(x)"])
        #expect(odd.sshDestination == "o'neil $(x)@203.0.113.5")
        #expect(odd.sshCommand == #"ssh -L 43123:localhost:43123 'o'\''neil $(x)@203.0.113.5'"#)
        let plain = address(["SSH_CONNECTION": "198.51.100.7 50122 203.0.113.5 22", "USER": "ada.lovelace-1_x"])
        #expect(plain.sshCommand == "ssh -L 43123:localhost:43123 ada.lovelace-1_x@203.0.113.5")
    }
}

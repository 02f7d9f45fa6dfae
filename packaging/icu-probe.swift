// What the packaged builds ask of ICU (docs/decisions.md#package-size), printed: scripts/test-packages
// builds this with the toolchain's ICU data and with scripts/icu-data-subset's, and fails when the two
// print anything different, in the C locale and three others.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let formatter = DateFormatter()
formatter.locale = Locale(identifier: "en_US_POSIX")
formatter.timeZone = TimeZone(identifier: "GMT")
formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
print("http-date:", formatter.date(from: "Wed, 21 Oct 2015 07:28:00 GMT").map { $0.timeIntervalSince1970 } as Any)
print("http-date out:", formatter.string(from: Date(timeIntervalSince1970: 1_445_412_480)))
print("iso8601:", ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: 1_445_412_480)))
print("format:", String(format: "%02x-%d-%@", 171, 42, "s"))
for text in [
    "https://contoso.ciamlogin.com/contoso.onmicrosoft.com", "http://127.0.0.1:43221/emulator.onmicrosoft.com",
    "https://bücher.example/a?b=c", "https://EXAMPLE.com/", "https://[::1]:8443/x",
] {
    let url = URL(string: text)
    let components = URLComponents(string: text)
    print("url:", text, url?.host as Any, url?.absoluteString as Any, components?.host as Any, components?.percentEncodedHost as Any)
}
print("lower:", "ÀDA@Example.COM".lowercased(), "straße".uppercased())
print("compare:", "ada@example.com".caseInsensitiveCompare("ADA@EXAMPLE.COM") == .orderedSame)
print("range:", "Hello World".range(of: "world", options: .caseInsensitive) != nil)
print("locale:", Locale.current.identifier, Locale(identifier: "de_DE").identifier)
print("tz:", TimeZone(identifier: "GMT")?.identifier as Any, TimeZone(secondsFromGMT: 0)?.identifier as Any)
print("number:", 1234.5.description, String(describing: Decimal(string: "12.5")))
print("json:", String(decoding: try! JSONSerialization.data(withJSONObject: ["a": 1.5, "b": "é"], options: [.sortedKeys]), as: UTF8.self))
print("data:", String(data: Data("héllo".utf8), encoding: .utf8) as Any, String(data: Data([0x68, 0xe9]), encoding: .isoLatin1) as Any)
print("date desc:", Date(timeIntervalSince1970: 0).description)
let request = URLRequest(url: URL(string: "https://contoso.ciamlogin.com/x")!)
print("request:", request.url?.host as Any)
print("percent:", "a b/é".addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) as Any)
print("uuid:", UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")?.uuidString as Any)
print("trim:", "  x \n".trimmingCharacters(in: .whitespacesAndNewlines))

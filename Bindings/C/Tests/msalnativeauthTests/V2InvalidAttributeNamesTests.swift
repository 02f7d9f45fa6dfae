import Testing

@testable import msalnativeauth

/// The refused attribute names of a V2 `isInvalidAttributes` error, read from the description the
/// SDK writes (Sources/MSAL/V2/Flow/V2ErrorMapping.swift): what `msal_na_result_attribute` lists
/// with `MSAL_NA_ERR_INVALID_ATTRIBUTES`.
struct V2InvalidAttributeNamesTests {
    @Test(arguments: [
        ("The value is not valid (attributes: displayName)", ["displayName"]),
        ("Refused (x) (attributes: displayName, city)", ["displayName", "city"]),
        ("No names here", []),
        ("Cut short (attributes: displayName", []),
        ("", []),
    ])
    func namesComeFromTheDescriptionsSuffix(description: String, names: [String]) {
        #expect(Outcome.invalidAttributeNames(description) == names)
    }

    @Test func noDescriptionNoNames() {
        #expect(Outcome.invalidAttributeNames(nil).isEmpty)
    }
}

/// A flow through the SDK ended in another outcome than the test expected.
package struct EndToEndFailure: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

import CommandLineOptions
import Testing

/// The rules every command parses by (Sources/CommandLineOptions/OptionParser.swift), on a small
/// command of their own: no command runs.
struct OptionParserTests {
    struct Values: Equatable {
        var name: String?
        var color = "blue"
        var tags: [String] = []
        var verbose = false
        var count: UInt16 = 1
    }

    static let parser = OptionParser<Values>([
        .value("name", "NAME", \.name, "a name"),
        .value("color", "COLOR", \.color, "a colour\nover two lines"),
        .values("tag", "TAG", \.tags, "a tag (repeatable)"),
        .flag("verbose", \.verbose, "say more"),
        .integer("count", "N", \.count, in: 1...9, "how many"),
    ])

    func parse(_ arguments: [String]) throws(UsageError) -> (Values, OptionParser<Values>.Result) {
        var values = Values()
        let result = try Self.parser.parse(arguments, into: &values)
        return (values, result)
    }

    @Test func aValueFollowsItsOptionOrItsEqualsSign() throws {
        #expect(try parse(["--name", "ada"]).0.name == "ada")
        #expect(try parse(["--name=ada"]).0.name == "ada")
        #expect(try parse(["--name=a=b"]).0.name == "a=b", "only the first = separates")
        #expect(try parse(["--name="]).0.name == "", "an empty value is a value")
        #expect(try parse(["--color", "red"]).0.color == "red")
        #expect(try parse(["--count=9"]).0.count == 9)
    }

    @Test func aValueIsTakenAsItIsEvenWithALeadingDash() throws {
        #expect(try parse(["--name", "-"]).0.name == "-")
        #expect(try parse(["--name", "--verbose"]).0 == Values(name: "--verbose"))
        #expect(try parse(["--name", "-h"]).1.help == false)
        #expect(try parse(["--name", "--"]).0.name == "--")
    }

    @Test func repeatableOptionsKeepEveryValueInOrder() throws {
        #expect(try parse(["--tag", "a", "--tag=b", "--tag", "c"]).0.tags == ["a", "b", "c"])
    }

    @Test func doubleDashEndsOptionsAndLoneDashIsPositional() throws {
        let (values, result) = try parse(["one", "--verbose", "-", "--", "--name", "-h", "two"])
        #expect(values == Values(verbose: true))
        #expect(result == .init(help: false, positionals: ["one", "-", "--name", "-h", "two"]))
    }

    @Test func helpAnywhereAndParsingGoesOn() throws {
        #expect(try parse(["-h"]).1.help)
        #expect(try parse(["--verbose", "--help"]).1.help)
        #expect(throws: UsageError(.unknownOption("--bogus"))) { try parse(["--help", "--bogus"]) }
    }

    @Test func positionalLimitLeavesTheRestUnread() throws {
        var values = Values()
        let result = try Self.parser.parse(["--verbose", "cmd", "--bogus"], into: &values, positionalLimit: 1)
        #expect(result.positionals == ["cmd"] && values.verbose)
    }

    @Test(arguments: [
        (["--bogus"], UsageError(.unknownOption("--bogus"))),
        (["--bogus=1"], UsageError(.unknownOption("--bogus"))),
        (["-x"], UsageError(.unknownOption("-x"))),
        (["-verbose"], UsageError(.unknownOption("-verbose"))),
        (["--name"], UsageError(.missingValue(option: "name", placeholder: "NAME"))),
        (["--verbose=yes"], UsageError(.unexpectedValue(option: "verbose"))),
        (["--name", "a", "--name=b"], UsageError(.repeated(option: "name"))),
        (["--verbose", "--verbose"], UsageError(.repeated(option: "verbose"))),
        (["--count", "10"], UsageError(.invalidValue(option: "count", reason: "must be a whole number from 1 to 9 (got '10')"))),
        (["--count", "x"], UsageError(.invalidValue(option: "count", reason: "must be a whole number from 1 to 9 (got 'x')"))),
    ])
    func usageErrors(_ arguments: [String], _ expected: UsageError) {
        #expect(throws: expected) { try parse(arguments) }
    }

    @Test func messagesNameTheOption() {
        #expect(UsageError(.unknownOption("--bogus")).description == "unknown option '--bogus'")
        #expect(UsageError(.missingValue(option: "name", placeholder: "NAME")).description == "option '--name' needs a value (NAME)")
        #expect(UsageError(.unexpectedValue(option: "verbose")).description == "option '--verbose' takes no value")
        #expect(UsageError(.repeated(option: "name")).description == "option '--name' is given twice")
        #expect(UsageError(.invalidValue(option: "count", reason: "is odd")).description == "--count is odd")
    }

    @Test func aSharedOptionStoresIntoItsPartOfALargerValue() throws {
        struct Outer: Equatable {
            var shared = Values()
            var own = false
        }
        let parser = OptionParser<Outer>(Self.parser.options.map { $0.within(\Outer.shared) } + [.flag("own", \.own, "")])
        var outer = Outer()
        _ = try parser.parse(["--own", "--name=x", "--tag", "t"], into: &outer)
        #expect(outer == Outer(shared: Values(name: "x", tags: ["t"]), own: true))
    }

    @Test func helpListsEachOptionWithItsPlaceholderAlignedAndContinued() {
        #expect(
            OptionHelp.lines(Self.parser.options.map(\.helpEntry) + [.help], width: 12) == """
                  --name NAME   a name
                  --color COLOR  a colour
                                over two lines
                  --tag TAG     a tag (repeatable)
                  --verbose     say more
                  --count N     how many
                  -h, --help    show this help

                """)
    }
}

import Foundation

// The floor for the fresh-token figure (BENCHMARKS.md): a program that loads Foundation, prints a
// line as long as a token and exits, started the same way as `msal-fresh-token`.
FileHandle.standardOutput.write(Data((String(repeating: "x", count: 900) + "\n").utf8))

import Foundation
import XCTest

/// Runs one of the Python checkers kept beside the tests (`Perfetto/decode_pftrace.py`,
/// `JUnit/validate_junit.py`). They use Perfetto's generated protobuf module and `xmlschema`,
/// which `.ci/run` installs; a missing `python3` or module fails the test with what to
/// install, never skips it.
enum PythonScript {
    /// What a checker printed.
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// The packages `.ci/run` installs, as its pip line names them.
    static let install = "python3 -m pip install perfetto==0.59.1 xmlschema==4.3.2 pyyaml==6.0.3 (as .ci/run does)"

    /// Runs `python3 <tests folder>/script arguments...` and returns its standard output;
    /// throws with its standard error when it exits non-zero.
    static func run(_ script: String, _ arguments: [String]) throws -> Data {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(script).path
        let output = try ProgramRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", path] + arguments)
        let stderr = String(decoding: output.stderr, as: UTF8.self)
        switch output.status {
        case 0: return output.stdout
        case 127: throw Failure(message: "python3 is not installed; \(script) needs it and \(install)")
        case 2: throw Failure(message: "\(stderr)install: \(install)")
        default: throw Failure(message: "\(script) \(arguments.joined(separator: " ")):\n\(stderr)")
        }
    }

    /// Validates JUnit files against `JUnit/junit-10.xsd`.
    static func validateJUnit(_ paths: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNoThrow(try run("JUnit/validate_junit.py", paths), file: file, line: line)
    }
}

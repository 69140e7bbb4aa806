import Foundation
import XCTest

/// Runs the built `keysim` binary the way a user does and captures what it prints.
struct KeysimProcess {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// What keysim printed, decoded as UTF-8.
    static func output(_ raw: ProgramRunner.Output) -> Output {
        Output(status: raw.status, stdout: String(decoding: raw.stdout, as: UTF8.self), stderr: String(decoding: raw.stderr, as: UTF8.self))
    }

    /// The `keysim` executable next to the test bundle in the build folder.
    static var executable: URL {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("keysim")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        let fromArgument = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("keysim")
        return fromArgument
    }

    /// The package root (where `scenarios/` and `traces/` live).
    static var packageRoot: URL { PackageRoot.url }

    /// Runs `keysim arguments...` in `directory` (the package root by default).
    static func run(_ arguments: [String], in directory: URL = packageRoot) throws -> Output {
        output(try ProgramRunner.run(executable, arguments, in: directory))
    }
}

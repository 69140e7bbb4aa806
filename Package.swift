// swift-tools-version:6.0
import Foundation
import PackageDescription

// The simulator's modules are optimised in debug builds too (`-O`; their internal checks stay
// on): the tests replay thousands of keystrokes through them, and at -Onone the suite took
// four times as long. The test targets, the tool and the bench keep the configuration's flags.
let optimisedInDebug = SwiftSetting.unsafeFlags(["-O"], .when(configuration: .debug))

let package = Package(
    name: "keysim",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "keysim", targets: ["keysim"]),
        .library(name: "TraceRecorder", targets: ["TraceRecorder"]),
    ],
    targets: [
        // System libraries: one module map and shim header each, found through pkg-config.
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CZstd",
            path: "Sources/CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
        ),

        // The engine and the component models: standard library only.
        .target(
            name: "Sim",
            swiftSettings: [.define("KEYSIM_INTERNAL_CHECKS", .when(configuration: .debug)), optimisedInDebug],
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]
        ),
        // Scenario files, traces and the wiring of a simulation.
        .target(name: "Scenarios", dependencies: ["Sim", "CZstd"], swiftSettings: [optimisedInDebug]),
        // The SQLite store, statistics and exporters.
        .target(name: "Report", dependencies: ["Sim", "Scenarios", "CSQLite"], swiftSettings: [optimisedInDebug]),
        // The command-line tool: parses arguments and wires the modules together.
        .executableTarget(name: "keysim", dependencies: ["Sim", "Scenarios", "Report"]),
        // `make bench`: prints `bench <name> <value> <unit>` lines.
        .executableTarget(name: "KeysimBench", dependencies: ["Sim", "Scenarios", "Report"]),
        // A trace writer a keyboard extension can embed (Foundation at most).
        .target(name: "TraceRecorder"),
        // The bodies of the fuzz targets, shared by `make fuzz` and the regression tests.
        .target(name: "FuzzHarness", dependencies: ["Sim", "Scenarios", "Report"]),

        // Helpers used by more than one test target (temporary folders, a small disk, a
        // program runner, a seeded generator, a report's rows); each test target re-exports it
        // from its `TestSupportImport.swift`.
        .target(name: "TestSupport", dependencies: ["Report"], path: "Tests/TestSupport"),

        .testTarget(name: "SimTests", dependencies: ["Sim", "TestSupport"]),
        .testTarget(name: "ScenariosTests", dependencies: ["Sim", "Scenarios", "FuzzHarness", "TestSupport"]),
        .testTarget(name: "ReportTests", dependencies: ["Sim", "Scenarios", "Report", "TestSupport"]),
        // Perfetto/, JUnit/, Markdown/ and CI/ hold the Python checkers the tests run (and the JUnit schema).
        .testTarget(name: "CLITests", dependencies: ["keysim", "Scenarios", "Report", "TestSupport"], exclude: ["Perfetto", "JUnit", "Markdown", "CI"]),
        // The recorder's output read back with keysim's own reader.
        .testTarget(name: "TraceRecorderTests", dependencies: ["TraceRecorder", "Scenarios", "Sim", "TestSupport"]),
    ]
)

// `make fuzz` only: the libFuzzer executable, built with `-sanitize=fuzzer` (see README,
// "Developing"). It has no `main` of its own, so it exists only when KEYSIM_FUZZ is set.
if ProcessInfo.processInfo.environment["KEYSIM_FUZZ"] != nil {
    package.targets.append(.executableTarget(
        name: "KeysimFuzz", dependencies: ["FuzzHarness"], path: "Fuzz/KeysimFuzz",
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
}

import FuzzHarness
#if canImport(Glibc)
import Glibc
#endif

/// The fuzz target this process runs, named by `KEYSIM_FUZZ_TARGET` (`make fuzz` sets it):
/// one executable holds every target of `FuzzHarness`, each run with its own corpus.
let target: String = {
    let name = getenv("KEYSIM_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard FuzzHarness.targetNames.contains(name) else {
        print("KEYSIM_FUZZ_TARGET must be one of \(FuzzHarness.targetNames.joined(separator: ", ")), not '\(name)'")
        exit(2)
    }
    return name
}()

/// libFuzzer's entry: every input goes to the selected target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer?, _ size: Int) -> CInt {
    FuzzHarness.run(target, UnsafeRawBufferPointer(start: start, count: size))
    return 0
}

/// libFuzzer's driver (in the runtime that `-sanitize=fuzzer` links).
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                     _ callback: @convention(c) (UnsafeRawPointer?, Int) -> CInt) -> CInt

/// The executable's entry point (SwiftPM names it `KeysimFuzz_main`): libFuzzer's options
/// and corpus folders come from the command line.
@_cdecl("KeysimFuzz_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    _ = target
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzOneInput)
}

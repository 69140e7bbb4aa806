import FuzzHarness

/// libFuzzer's entry: every input goes to `FuzzHarness.zstd`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer?, _ size: Int) -> CInt {
    FuzzHarness.zstd(UnsafeRawBufferPointer(start: start, count: size))
    return 0
}

/// libFuzzer's driver, run from the executable's entry point (SwiftPM names it
/// `FuzzZstd_main`): options and corpus folders come from the command line.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                     _ callback: @convention(c) (UnsafeRawPointer?, Int) -> CInt) -> CInt

/// The executable's entry point.
@_cdecl("FuzzZstd_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzOneInput)
}

/// A tiny seedable generator (SplitMix64) for the tests' own random inputs, independent of
/// keysim's `RandomStream`: Swift's system generator cannot be seeded, and a failing seed
/// must be reproducible.
public struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose first output is the SplitMix64 step of `seed`.
    public init(seed: UInt64) { state = seed }

    /// The same generator as `init(seed:)`, under the name the engine tests use.
    public init(state: UInt64) { self.state = state }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<n` (with the small bias of a plain remainder, which the tests accept).
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// The name the engine tests use for a `SplitMix`.
public typealias TestRNG = SplitMix

/// A named, seeded stream of pseudo-random numbers: xoshiro256** seeded through SplitMix64.
///
/// Every component draws from its own stream, and a stream's starting state depends only on
/// `(seed, replication, name)` through a fixed hash (see `RandomStream+Seeding.swift`). A
/// component added to a scenario therefore gets fresh numbers without shifting anyone
/// else's draws: that is what makes policy comparisons use common random numbers.
///
/// The stream is a value: a copy continues the same sequence independently, so pass it
/// `inout` rather than copying it, or two consumers will see the same numbers.
///
/// It deliberately does not conform to `RandomNumberGenerator`: the standard library's
/// `random(in:using:)` and `shuffle(using:)` may change their algorithms between toolchain
/// releases, which would silently change reports. Draw through the methods below instead.
public struct RandomStream: Sendable {
    /// The xoshiro256** state; never all zero.
    private var state0: UInt64
    private var state1: UInt64
    private var state2: UInt64
    private var state3: UInt64

    /// The stream's identity: the 64-bit key its state was expanded from. `derived(_:)` hashes
    /// child names against it, so children do not depend on how far the parent has run.
    let key: UInt64

    /// Creates the stream that `name` gets in `replication` of a run seeded with `seed`.
    ///
    /// The same three inputs give the same sequence on every run, machine and thread count.
    /// - Precondition: `replication >= 0`.
    /// - Complexity: O(name.utf8.count)
    public init(seed: UInt64, replication: Int, name: String) {
        precondition(replication >= 0, "replication must be >= 0, got \(replication)")
        self.init(key: RandomStream.streamKey(seed: seed, replication: replication, name: name))
    }

    /// Creates a stream whose state is expanded from `key` by SplitMix64, as recommended by
    /// the xoshiro authors: consecutive SplitMix64 outputs are distinct values of a bijection,
    /// so at most one of the four words can be zero and the state is never all zero.
    init(key: UInt64) {
        self.key = key
        var expander = SplitMix64(state: key)
        state0 = expander.next()
        state1 = expander.next()
        state2 = expander.next()
        state3 = expander.next()
    }

    /// Creates a stream from raw xoshiro256** state words, for known-answer tests against
    /// the reference implementation only.
    init(xoshiroState words: (UInt64, UInt64, UInt64, UInt64)) {
        precondition(words != (0, 0, 0, 0), "xoshiro256** state must not be all zero")
        key = 0
        (state0, state1, state2, state3) = words
    }

    /// The next 64 uniformly distributed bits (xoshiro256**, Blackman and Vigna 2018).
    /// - Complexity: O(1)
    @inline(__always)
    public mutating func nextUInt64() -> UInt64 {
        let result = RandomStream.rotateLeft(state1 &* 5, by: 7) &* 9
        let shifted = state1 << 17
        state2 ^= state0
        state3 ^= state1
        state1 ^= state2
        state0 ^= state3
        state2 ^= shifted
        state3 = RandomStream.rotateLeft(state3, by: 45)
        return result
    }

    /// A uniform double in [0, 1): the top 53 bits of one draw, so every value is a multiple
    /// of 2⁻⁵³ and all of them are equally likely.
    /// - Complexity: O(1)
    @inline(__always)
    public mutating func nextDouble() -> Double {
        Double(nextUInt64() >> 11) * 0x1p-53
    }

    /// The first `nextDouble()` of the stream `RandomStream(key: key)`, without expanding the
    /// rest of its state: xoshiro256**'s first output reads only the second state word, the
    /// second SplitMix64 output from `key`. For a stream that is made to draw one number.
    /// - Complexity: O(1)
    @inline(__always)
    static func firstDouble(key: UInt64) -> Double {
        let state1 = SplitMix64.finalize(key &+ 2 &* SplitMix64.increment)
        let first = RandomStream.rotateLeft(state1 &* 5, by: 7) &* 9
        return Double(first >> 11) * 0x1p-53
    }

    /// A uniform double in the open interval (0, 1), for `log(u)` and inverse CDFs that must
    /// not see 0 or 1: the top 52 bits plus one half, times 2⁻⁵². The smallest value is
    /// 2⁻⁵³ and the largest 1 − 2⁻⁵³, both exact.
    /// - Complexity: O(1)
    @inline(__always)
    public mutating func nextOpenUnit() -> Double {
        (Double(nextUInt64() >> 12) + 0.5) * 0x1p-52
    }

    /// A uniform integer in `0..<n`, without modulo bias (Lemire 2019, "Fast random integer
    /// generation in an interval"): the high word of a 64×64-bit product, rejecting the few
    /// low words that would over-represent some results.
    /// - Precondition: `n > 0`.
    /// - Complexity: O(1) expected; more than one draw with probability below `n / 2⁶⁴`.
    public mutating func nextInt(below n: Int) -> Int {
        precondition(n > 0, "nextInt(below:) needs n > 0, got \(n)")
        let bound = UInt64(n)
        var product = nextUInt64().multipliedFullWidth(by: bound)
        if product.low < bound {
            // 2⁶⁴ mod n, computed in 64 bits as (2⁶⁴ − n) mod n.
            let threshold = (0 &- bound) % bound
            while product.low < threshold {
                product = nextUInt64().multipliedFullWidth(by: bound)
            }
        }
        return Int(product.high)
    }

    /// `true` with probability `p`. Always consumes exactly one draw, so a branch on the
    /// outcome never shifts the rest of the stream.
    /// - Precondition: `0 <= p <= 1`.
    /// - Complexity: O(1)
    public mutating func bernoulli(_ p: Double) -> Bool {
        precondition(p >= 0 && p <= 1, "bernoulli probability must be in [0, 1], got \(p)")
        return nextDouble() < p
    }

    /// The bits of `x` rotated left by `count` (0 < count < 64).
    @inline(__always)
    private static func rotateLeft(_ x: UInt64, by count: UInt64) -> UInt64 {
        (x << count) | (x >> (64 &- count))
    }
}

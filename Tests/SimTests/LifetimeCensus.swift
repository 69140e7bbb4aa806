/// Counts the live instances of `Tracked`, so that a test can prove a container releases
/// every value it holds exactly once.
final class LifetimeCensus {
    /// Instances created and not yet released.
    var alive = 0

    /// A value with identity that reports its lifetime to a census.
    final class Tracked {
        let census: LifetimeCensus
        /// A number the test may use to tell instances apart.
        let id: Int
        init(_ census: LifetimeCensus, id: Int = 0) {
            self.census = census
            self.id = id
            census.alive += 1
        }
        deinit { census.alive -= 1 }
    }
}

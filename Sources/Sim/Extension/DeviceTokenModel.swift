/// The device token between the container app, the keyboard and the server.
///
/// The server issues generation `g` of the token at `g × rotationPeriod` and stores only the
/// SHA-256 of each token; it accepts the current generation, and the previous one until
/// `grace` after the rotation; after `logoutAt` it accepts none. The container app hands
/// generation `g ≥ 1` to the keyboard at the rotation plus a refresh delay drawn from
/// `refresh` (stream `token.refresh`, one draw per generation, in order). Tokens are strings
/// derived from (seed, replication, trace, generation) and really hashed — once per
/// generation, so the cost is per rotation, not per request.
struct DeviceTokenModel {
    let config: DeviceTokenConfig
    private let tokenPrefix: String
    private var refreshDelays: RandomStream
    /// `refreshTimes[g - 1]`: when the keyboard holds generation g.
    private var refreshTimes: [SimTime] = []
    /// `arrivals[g - 1]`: the latest of `refreshTimes[0 ..< g]`, when the keyboard holds every
    /// generation up to g (refreshes are taken in order). Never decreases, so the keyboard's
    /// generation at a time is found by binary search rather than by walking every rotation.
    private var arrivals: [SimTime] = []
    /// `digests[g]`: the SHA-256 the server stores for generation g.
    private var digests: [String] = []

    /// What the server says to a token.
    enum Verdict: Equatable {
        case accepted
        case expired(keyboard: Int, server: Int)
        case revoked(keyboard: Int, server: Int)
    }

    init(config: DeviceTokenConfig, refreshDelays: RandomStream, tokenPrefix: String) {
        precondition(config.rotationPeriod > .zero, "a token rotates after a positive period")
        self.config = config
        self.refreshDelays = refreshDelays
        self.tokenPrefix = tokenPrefix
    }

    /// The server's generation at `time`.
    func serverGeneration(at time: SimTime) -> Int { Int(time.nanoseconds / config.rotationPeriod.nanoseconds) }

    /// The token string of generation `g`.
    func token(_ generation: Int) -> String { "\(tokenPrefix)device-token/\(generation)" }

    /// When the keyboard receives generation `g` (g ≥ 1).
    mutating func refreshTime(of generation: Int) -> SimTime {
        precondition(generation >= 1)
        while refreshTimes.count < generation {
            let g = refreshTimes.count + 1
            let rotation = SimTime.zero + config.rotationPeriod * Int64(g)
            let time = rotation + config.refresh.sampleDuration(&refreshDelays)
            refreshTimes.append(time)
            arrivals.append(max(arrivals.last ?? time, time))
        }
        return refreshTimes[generation - 1]
    }

    /// The generation the keyboard holds at `time`. Refreshes arrive in generation order: a
    /// late one for g does not let g + 1 overtake it.
    /// - Complexity: O(log g) for g rotations so far (plus the draws of new generations).
    mutating func keyboardGeneration(at time: SimTime) -> Int {
        let server = serverGeneration(at: time)
        guard server >= 1 else { return 0 }
        _ = refreshTime(of: server)
        // The largest g ≤ server with arrivals[g - 1] ≤ time.
        var low = 0, high = server
        while low < high {
            let middle = (low + high + 1) / 2
            if arrivals[middle - 1] <= time { low = middle } else { high = middle - 1 }
        }
        return low
    }

    private mutating func digest(_ generation: Int) -> String {
        while digests.count <= generation { digests.append(SHA256.hex(token(digests.count).utf8)) }
        return digests[generation]
    }

    /// The server's verdict on the token the keyboard sends at `time`: the digest of the
    /// presented token compared with the digests the server still accepts.
    mutating func check(at time: SimTime) -> Verdict {
        let server = serverGeneration(at: time)
        let keyboard = keyboardGeneration(at: time)
        if let logout = config.logoutAt, time >= logout { return .revoked(keyboard: keyboard, server: server) }
        let presented = digest(keyboard)
        var accepted = [digest(server)]
        if server >= 1 && time < SimTime.zero + config.rotationPeriod * Int64(server) + config.grace { accepted.append(digest(server - 1)) }
        return accepted.contains(presented) ? .accepted : .expired(keyboard: keyboard, server: server)
    }

    /// When the keyboard will hold the server's generation at `time` (at once when it
    /// already does).
    mutating func refreshed(at time: SimTime) -> SimTime {
        let server = serverGeneration(at: time)
        return server == 0 ? time : max(time, refreshTime(of: server))
    }
}

import Scenarios
import Sim

/// The extension's life pooled over a batch's runs — kills, language files, device-token
/// rejections — as lines under the budget table of `keysim run`. Every line appears only
/// when its figures are not all zero, so a run without kills, downloads or a token prints
/// nothing new.
public struct ExtensionSummary: Sendable, Equatable {
    /// Kills over all runs.
    public var kills = 0
    /// Keys handled only after a restart.
    public var keysHeld = 0
    /// Total cold-restart time, milliseconds.
    public var restartMs = 0.0
    /// The largest footprint of any run, MB.
    public var peakFootprintMegabytes = 0.0
    /// The limit of the first kill, MB (the scenario's).
    public var limitMegabytes = 0.0
    /// Language-file downloads, and those interrupted.
    public var downloads = 0
    public var downloadsInterrupted = 0
    /// Files refused by verification, and corrupt models loaded without it.
    public var verificationFailures = 0
    public var corruptLoads = 0
    /// Suggestion bars and checks from a corrupt model.
    public var silentlyWrongSuggestions = 0
    public var silentlyWrongChecks = 0
    /// Requests refused for an expired token, for a revoked one, and the latency refusals added.
    public var tokenRejections = 0
    public var revokedRequests = 0
    public var tokenAddedMs = 0.0

    /// Nothing pooled yet.
    public init() {}

    /// Pools the runs' extension records.
    public init(results: [RunResult]) {
        for result in results { add(result) }
    }

    /// Adds one run's extension records.
    public mutating func add(_ result: RunResult) {
        let e = result.observations.extensionRecords
        kills += e.kills.count
        for kill in e.kills {
            keysHeld += kill.keysHeld.count
            restartMs += kill.restartDuration.milliseconds
            if limitMegabytes == 0 { limitMegabytes = kill.limitMegabytes }
        }
        peakFootprintMegabytes = max(peakFootprintMegabytes, e.totals.peakFootprintMegabytes)
        downloads += e.downloads.count
        downloadsInterrupted += e.downloads.count { $0.outcome != .complete }
        verificationFailures += e.verificationFailures
        corruptLoads += e.corruptLoads
        silentlyWrongSuggestions += e.totals.silentlyWrongSuggestions
        silentlyWrongChecks += e.totals.silentlyWrongChecks
        for rejection in e.tokenRejections {
            if rejection.reason == .revoked {
                revokedRequests += 1
            } else {
                tokenRejections += 1
                tokenAddedMs += rejection.added.milliseconds
            }
        }
    }

    /// The lines for `keysim run`, each ending in a newline; empty when nothing happened.
    public func lines() -> String {
        var out = ""
        if kills > 0 {
            out += "memory       \(kills) kills over \(TextTable.fixed(limitMegabytes, 1)) MB (peak \(TextTable.fixed(peakFootprintMegabytes, 1)) MB), "
                + "\(TextTable.fixed(restartMs / Double(kills), 0)) ms per restart, \(keysHeld) keys held\n"
        }
        if downloads > 0 || corruptLoads > 0 {
            out += "languages    \(downloads) downloads (\(downloadsInterrupted) interrupted), \(verificationFailures) failed verification, "
                + "\(corruptLoads) corrupt models loaded (\(silentlyWrongSuggestions) suggestions, \(silentlyWrongChecks) checks silently wrong)\n"
        }
        if tokenRejections > 0 || revokedRequests > 0 {
            out += "token        \(tokenRejections) rejected requests (+\(TextTable.fixed(tokenAddedMs, 0)) ms in all), \(revokedRequests) revoked after logout\n"
        }
        return out
    }
}

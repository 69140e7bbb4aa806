// The device token the cloud client's requests carry: checked before each attempt, and a
// refusal answered (the request waits for the current token, or fails).

extension CloudClient {
    /// Checks the request's token before an attempt goes out. Returns true when the server
    /// refuses it: the refusal arrives after a round trip, and the attempt does not count
    /// against `maxAttempts`.
    mutating func tokenRefused(request id: Int, io: inout KeyboardIO) -> Bool {
        guard var token else { return false }
        let state = io.network.state(at: io.now)
        guard state != .offline else { return false }
        let verdict = token.check(at: io.now)
        self.token = token
        guard verdict != .accepted else { return false }
        let roundTrip = io.network.roundTrip(.tokenCheck, in: state)
        io.schedule(.cloud(.tokenAnswer(request: id, attempt: io.now, verdict: verdict)), after: roundTrip)
        return true
    }

    /// The server refused an attempt's token: the request waits for the current token, or fails.
    mutating func tokenAnswer<Sink: ObservationSink>(request id: Int, attempt: SimTime, verdict: DeviceTokenModel.Verdict,
                                                             io: inout KeyboardIO, sink: inout Sink) {
        guard var request = requests[id] else { return }   // abandoned by a kill meanwhile
        switch verdict {
        case .accepted:
            preconditionFailure("an accepted token is not answered here")
        case .revoked(let keyboard, let server):
            sink.record(.extensionLifecycle(.tokenRejection(TokenRejectionRecord(
                requestID: id, attempt: attempt, rejected: io.now, retry: nil, reason: .revoked,
                keyboardGeneration: keyboard, serverGeneration: server))))
            requests[id] = nil
            // The refused attempt is the request's last one.
            request.attempts += 1
            giveUp(request, outcome: .revoked, io: &io, sink: &sink)
        case .expired(let keyboard, let server):
            // The keyboard waits until the container app has stored the current token.
            let retry = token!.refreshed(at: io.now)
            sink.record(.extensionLifecycle(.tokenRejection(TokenRejectionRecord(
                requestID: id, attempt: attempt, rejected: io.now, retry: retry, reason: .expired,
                keyboardGeneration: keyboard, serverGeneration: server))))
            io.schedule(.cloud(.tokenRetry(request: id)), at: retry)
        }
    }
}

import XCTest
@testable import Sim

/// The backend seam, checked by doing `docs/architecture.md`'s recipe "Add a backend
/// model" once: a finite backend — one server, first come first served, a constant
/// service — that decides later, run inside one keyboard's simulation.
final class BackendSeamTests: XCTestCase {
    /// One server, a queue, a constant service time; replies through `wake`.
    struct SingleServerBackend: CloudBackend {
        let serviceTime: SimDuration
        private var waiting: [(id: BackendAttemptID, arrival: SimTime, tokens: BackendRequest)] = []
        private var inService: (id: BackendAttemptID, arrival: SimTime, start: SimTime, tokens: BackendRequest)?
        /// When the server finished its last job.
        private var freeAt = SimTime.zero
        private(set) var abandoned: [Int] = []

        init(serviceTime: SimDuration) { self.serviceTime = serviceTime }

        mutating func submit(_ request: BackendRequest, arrivingAt arrival: SimTime) -> BackendReceipt {
            waiting.append((request.id, arrival, request))
            return .later
        }

        var nextWake: SimTime? {
            if let job = inService { return job.start + serviceTime }
            return waiting.map(\.arrival).min()
        }

        mutating func wake(at now: SimTime) -> [BackendReply] {
            var replies: [BackendReply] = []
            while true {
                if let job = inService, job.start + serviceTime <= now {
                    let service = BackendService(service: job.start + serviceTime - job.arrival, firstToken: job.start - job.arrival,
                                                 queueWait: job.start - job.arrival, bill: Self.bill(job.tokens))
                    replies.append(BackendReply(id: job.id, message: .finished(.served(service))))
                    freeAt = job.start + serviceTime
                    inService = nil
                    continue
                }
                guard inService == nil, let next = waiting.indices.min(by: { waiting[$0].arrival < waiting[$1].arrival }),
                      waiting[next].arrival <= now else { break }
                let job = waiting.remove(at: next)
                inService = (job.id, job.arrival, max(job.arrival, freeAt), job.tokens)
                replies.append(BackendReply(id: job.id, message: .started(Self.bill(job.tokens))))
            }
            return replies
        }

        /// Every served attempt costs one picodollar.
        static func bill(_ request: BackendRequest) -> BackendBill {
            BackendBill(inputTokens: request.inputTokens, cachedTokens: 0, outputTokens: request.outputTokens, costPicoUSD: 1)
        }

        mutating func abandon(_ attempt: BackendAttemptID, at now: SimTime) {
            if let index = waiting.firstIndex(where: { $0.id == attempt }) {
                waiting.remove(at: index)
                abandoned.append(attempt.attempt)
            }
        }

        var isIdle: Bool { waiting.isEmpty && inService == nil }
    }

    func testRequestsQueueAtAFiniteBackendAndTheirRepliesComeLater() throws {
        var h = KeyboardHarness(.exact, backend: SingleServerBackend(serviceTime: .milliseconds(1_000)))
        try h.type("ab ", fromMs: 0)               // sent at 602, arrives 627, served 627–1627
        try h.type("cd ", fromMs: 700)             // lands 902: sent at 1302, arrives 1327, waits until 1627
        _ = h.finish()
        let requests = h.sink.requests.sorted { $0.id < $1.id }
        XCTAssertEqual(requests.map { $0.end.milliseconds }, [1_652, 2_652])
        XCTAssertEqual(requests.map(\.queueWait), [.zero, .milliseconds(300)])
        XCTAssertEqual(requests.map(\.service), [.milliseconds(1_000), .milliseconds(1_300)])
        XCTAssertEqual(requests.map(\.costPicoUSD), [1, 1])
        XCTAssertTrue(h.simulation.io.backend.isIdle)
    }

    func testAnAttemptThatTimesOutLeavesTheQueueButIsBilledOnceInService() throws {
        var config = KeyboardConfig.exact
        config.network.timeout = .milliseconds(2_200)
        config.network.maxAttempts = 1
        var h = KeyboardHarness(config, backend: SingleServerBackend(serviceTime: .milliseconds(2_000)))
        try h.type("ab ", fromMs: 0)               // sent at 602, served 627–2627, back at 2652
        try h.type("cd ", fromMs: 700)             // sent at 1302, served 2627–4627: times out at 3502 in service
        try h.type("ef ", fromMs: 1_500)           // sent at 2102, still waiting when it times out at 4302
        _ = h.finish()
        let requests = h.sink.requests.sorted { $0.id < $1.id }
        XCTAssertEqual(requests.map(\.outcome), [.answered, .failed, .failed])
        XCTAssertEqual(requests.map { $0.end.milliseconds }, [2_652, 3_502, 4_302])
        XCTAssertEqual(requests.map(\.costPicoUSD), [1, 1, 0], "served even after the keyboard gave up: billed; dropped from the queue: not")
        XCTAssertEqual((h.simulation.io.backend as! SingleServerBackend).abandoned, [2])
    }

    /// A session's port to a backend that runs outside it (as a fleet's shared backend
    /// will): attempts wait in an outbox for whatever runs the backend.
    struct PortBackend: CloudBackend {
        var outbox: [(request: BackendRequest, arrival: SimTime)] = []
        mutating func submit(_ request: BackendRequest, arrivingAt arrival: SimTime) -> BackendReceipt {
            outbox.append((request, arrival))
            return .later
        }
    }

    func testABackendOutsideTheSimulationRepliesThroughDeliver() throws {
        var h = KeyboardHarness(.exact, backend: PortBackend())
        try h.type("ab ", fromMs: 0)               // sent at 602, arrives 627
        h.advance(to: SimTime(milliseconds: 627))
        let taken = h.simulation.withBackend { backend -> [(request: BackendRequest, arrival: SimTime)] in
            var port = backend as! PortBackend
            defer { port.outbox = []; backend = port }
            return port.outbox
        }
        XCTAssertEqual(taken.count, 1)
        XCTAssertEqual(taken[0].arrival.milliseconds, 627)
        XCTAssertEqual(taken[0].request.id, BackendAttemptID(user: 0, session: 0, attempt: 0))
        XCTAssertEqual(taken[0].request.inputTokens, 301)
        let bill = BackendBill(inputTokens: 301, cachedTokens: 0, outputTokens: 10, costPicoUSD: 42)
        // The clock moves with events: a trace event that changes nothing brings it to 900 ms.
        try h.feed(.keyboardShown, atMs: 900)
        h.simulation.deliver(BackendReply(id: taken[0].request.id, message: .started(bill)))
        try h.feed(.keyboardShown, atMs: 1_400)
        let service = BackendService(service: .milliseconds(773), firstToken: .milliseconds(400), queueWait: .milliseconds(273),
                                     bill: bill)
        h.simulation.deliver(BackendReply(id: taken[0].request.id, message: .finished(.served(service))))
        _ = h.finish()
        let request = try XCTUnwrap(h.sink.requests.first)
        XCTAssertEqual(request.outcome, .answered)
        XCTAssertEqual(request.end.milliseconds, 1_425, "the answer crosses the second half of the round trip")
        XCTAssertEqual(request.costPicoUSD, 42, "billed once, when service began")
        XCTAssertEqual(request.queueWait, .milliseconds(273))
    }
}

/// The cloud behind the network: what happens to a check request between its arrival and
/// its reply — limits, queues, service, billing. The client hands each attempt to the
/// backend (`submit`) and is told later what came of it, at a time the backend decides.
///
/// A backend that can decide at once (the private one: one user, infinite replicas) says
/// so in the receipt, with the instant its reply leaves; one that queues (a shared, finite
/// backend) answers `.later` and delivers `BackendReply`s when it has them — service began
/// (billed from then on), then served or refused: through `wake` when it runs inside one
/// keyboard's simulation (the router calls it at `nextWake`), or through
/// `KeyboardSimulation.deliver` when something outside runs it. The client treats both the
/// same. An attempt the client gives up before its service begins is `abandon`ed and never
/// billed; one whose service began is billed, as providers bill. `docs/architecture.md` ("Add a backend model") is the recipe.
public protocol CloudBackend: Sendable {
    /// An attempt reaches the backend at `arrival` (no earlier than the simulated time now).
    mutating func submit(_ request: BackendRequest, arrivingAt arrival: SimTime) -> BackendReceipt
    /// When the backend next wants to act (a queued request to start, a reply to send), if ever.
    var nextWake: SimTime? { get }
    /// Acts at `now` (its `nextWake`): the replies that leave now.
    mutating func wake(at now: SimTime) -> [BackendReply]
    /// The client gave up on an attempt (it timed out, or the keyboard dropped it). A backend
    /// may drop it from a queue; one it already serves is served and billed all the same.
    mutating func abandon(_ attempt: BackendAttemptID, at now: SimTime)
    /// Whether nothing is queued or in service.
    var isIdle: Bool { get }
}

extension CloudBackend {
    public var nextWake: SimTime? { nil }
    public mutating func wake(at now: SimTime) -> [BackendReply] { [] }
    public mutating func abandon(_ attempt: BackendAttemptID, at now: SimTime) {}
    public var isIdle: Bool { true }
}

/// Names one attempt of one request of one session of one user: what a reply answers.
public struct BackendAttemptID: Sendable, Equatable, Hashable {
    /// The user (0 for a keyboard simulated alone).
    public var user: Int
    /// The user's session (0 for a keyboard simulated alone).
    public var session: Int
    /// The client's attempt number within the session.
    public var attempt: Int
    /// Creates an identifier.
    public init(user: Int, session: Int, attempt: Int) {
        self.user = user
        self.session = session
        self.attempt = attempt
    }
}

/// A check request's attempt as a backend sees it: who sent it and what it carries.
public struct BackendRequest: Sendable, Equatable {
    /// The attempt.
    public var id: BackendAttemptID
    /// The client's request (one request makes one or more attempts).
    public var request: Int
    /// Input tokens: the system prompt and the text sent.
    public var inputTokens: Int
    /// The leading input tokens a provider may cache: the system prompt.
    public var cacheableTokens: Int
    /// Output tokens the answer will have.
    public var outputTokens: Int
    /// Creates a request.
    public init(id: BackendAttemptID, request: Int, inputTokens: Int, cacheableTokens: Int, outputTokens: Int) {
        self.id = id
        self.request = request
        self.inputTokens = inputTokens
        self.cacheableTokens = cacheableTokens
        self.outputTokens = outputTokens
    }
}

/// What a backend says when handed an attempt.
public enum BackendReceipt: Sendable, Equatable {
    /// It knows already: `outcome`, whose reply leaves the backend at `repliesAt`.
    case decided(BackendOutcome, repliesAt: SimTime)
    /// It will deliver a `BackendReply` later.
    case later
}

/// A message a backend that decides later sends about an attempt: its service began (the
/// provider bills it from then on, whatever the keyboard does), or it is over.
public struct BackendReply: Sendable, Equatable {
    /// The attempt it is about.
    public var id: BackendAttemptID
    /// What it says.
    public var message: Message
    /// Creates a reply.
    public init(id: BackendAttemptID, message: Message) {
        self.id = id
        self.message = message
    }

    /// What a reply says.
    public enum Message: Sendable, Equatable {
        /// Service began: the attempt is billed `bill` (sent before `finished`; a backend that
        /// serves at once may leave it out, its `finished` answer carrying the bill).
        case started(BackendBill)
        /// It is over: served or refused.
        case finished(BackendOutcome)
    }
}

/// What a served attempt is billed.
public struct BackendBill: Sendable, Equatable {
    /// Input tokens (the cached ones included).
    public var inputTokens: Int
    /// Input tokens read from the prompt cache.
    public var cachedTokens: Int
    /// Output tokens.
    public var outputTokens: Int
    /// What they cost, picodollars.
    public var costPicoUSD: Int64
    /// Creates a bill.
    public init(inputTokens: Int, cachedTokens: Int, outputTokens: Int, costPicoUSD: Int64) {
        self.inputTokens = inputTokens
        self.cachedTokens = cachedTokens
        self.outputTokens = outputTokens
        self.costPicoUSD = costPicoUSD
    }
}

/// What came of an attempt at the backend.
public enum BackendOutcome: Sendable, Equatable {
    /// Served: the answer, and what it was billed.
    case served(BackendService)
    /// Refused: a limit (429) or an overloaded provider (503, 529).
    case rejected(BackendRejection)
}

/// An attempt the backend served.
public struct BackendService: Sendable, Equatable {
    /// Arrival to the last token.
    public var service: SimDuration
    /// Arrival to the first token.
    public var firstToken: SimDuration
    /// Time spent waiting in a queue before service began (part of `service`).
    public var queueWait: SimDuration
    /// What it was billed.
    public var bill: BackendBill
    /// Creates a service record.
    public init(service: SimDuration, firstToken: SimDuration, queueWait: SimDuration, bill: BackendBill) {
        self.service = service
        self.firstToken = firstToken
        self.queueWait = queueWait
        self.bill = bill
    }
}

/// An attempt the backend refused.
public struct BackendRejection: Sendable, Equatable {
    /// Why.
    public var reason: RejectionReason
    /// The HTTP status answered.
    public var status: Int
    /// The `Retry-After` sent with it, if any (whole seconds, as HTTP writes it).
    public var retryAfter: SimDuration?
    /// Creates a rejection.
    public init(reason: RejectionReason, status: Int, retryAfter: SimDuration?) {
        self.reason = reason
        self.status = status
        self.retryAfter = retryAfter
    }

    /// Whether trying again can help (a request larger than a bucket never passes).
    public var isRetryable: Bool { reason != .tooLarge }
}

/// Why a backend refused an attempt, as the report's `rejection` column names it.
public enum RejectionReason: String, Sendable, Equatable, CaseIterable {
    /// Over the app backend's requests a minute for the user (429).
    case userRequests = "user-requests"
    /// Over the app backend's tokens a minute for the user (429).
    case userTokens = "user-tokens"
    /// Over the provider's requests a minute (429).
    case providerRequests = "provider-requests"
    /// Over the provider's tokens a minute (429).
    case providerTokens = "provider-tokens"
    /// The provider is overloaded (503 or 529).
    case overloaded
    /// Larger than a token bucket can ever hold (429, not retried).
    case tooLarge = "too-large"
    /// A shared backend's queue is full (503).
    case queueFull = "queue-full"
    /// A shared backend's admission control predicted a first token later than its target
    /// (503 or 429, as configured).
    case admission
}

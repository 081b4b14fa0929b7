import FirebaseHarness
import Harness
import SimulatedFirebase

extension AdminBroadcastScenario {
    /// The checks this scenario makes, as values.
    enum Check {
        static let announcementInEveryInbox = CheckDeclaration(
            .eventually, "announcement-in-every-inbox",
            "each announcement is in the in-app notifications of every member who left announcements on, once idle",
            operations: ["announce"])
        static let announcementPrompt = CheckDeclaration(
            .eventually, "announcement-within-two-minutes",
            "each of those members has it in the app within 2 minutes of the post, 21 more per invocation of its fan-out whose instance crashed (two redeliveries' longest backoffs and a lease; a timeout is the design's own), 10 more per event the platform held back (trigger-late)",
            operations: ["announce"])
        static let announcementRingsEveryDevice = CheckDeclaration(
            .eventually, "announcement-rings-every-device",
            "each announcement is pushed to every installed device of those members (unless FCM answered that device a transient failure), once idle",
            operations: ["announce"])
        static let announcementRingsOnce = CheckDeclaration(
            .always, "announcement-rings-once",
            "at most one push of an announcement per device, one more per invocation of its fan-out the platform terminated",
            operations: ["announce"])
        static let noAnnouncementWhenOptedOut = CheckDeclaration(
            .always, "no-announcement-when-opted-out",
            "no member who turned announcements off, nor the admin, gets one in the app or on a device", operations: ["announce"])
        static let deadTokensRemoved = CheckDeclaration(
            .eventually, "dead-tokens-removed",
            "once idle, no member who was sent an announcement keeps a token of an uninstalled app", operations: ["announce"])
        static let replyLikeNotified = CheckDeclaration(
            .eventually, "reply-like-notified",
            "each confirmed like of a reply by another member is a REPLY_LIKE in the reply author's notifications, unless they turned reply likes off",
            operations: ["likeReply"])
        static let noReplyLikeWhenOptedOut = CheckDeclaration(
            .always, "no-reply-like-when-opted-out", "a member who turned reply likes off gets no REPLY_LIKE", operations: ["likeReply"])
        static let deadTokenRemoved = CheckDeclaration(
            .sometimes, "dead-token-removed", "a token of an uninstalled app was removed from its member",
            requires: [.atLeast(Parameter.staleDevicePercent, 20), .atLeast(Parameter.users, 20), .atMost(Parameter.optOutPercent, 80)])
        static let replyLikeSent = CheckDeclaration(
            .sometimes, "reply-like-sent", "a REPLY_LIKE reached a reply's author",
            requires: [.atLeast(Parameter.replies, 3), .atLeast(Parameter.replyLikes, 10), .atMost(Parameter.optOutPercent, 80)])
    }
}

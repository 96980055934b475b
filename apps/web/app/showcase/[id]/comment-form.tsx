"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useId, useRef, useState } from "react";

type FormConfig = {
  comments_open: boolean;
  /** Unix seconds: set while today's automatic reviews are used up, when comments reopen. */
  paused_until: number | null;
  captcha: { site_key: string; script_url: string } | null;
  limits: { text_code_points: number; nickname_code_points: number };
  nickname_rules: string;
};
type SessionView = { form: FormConfig; session: { nickname: string; csrf_token: string } | null };
type CheckReason = { code: string; message: string; field?: string };
type Receipt = { comment_id: string; request_id: string; state: string; published: boolean; reasons: CheckReason[]; text: string };
/** The comment a reply answers, as the page found it: whom, and the start of what they wrote. */
export type AnsweredComment = { id: string; author: string; quote: string };
type Hcaptcha = { render(container: HTMLElement, options: { sitekey: string; callback(token: string): void }): string; reset(id: string): void };

const OWN_COMMENTS = "board-own-comments";
const OUTCOME_TEXT: Record<string, string> = {
  checking: "Your comment is being checked; its outcome shows here in a moment. Your text is kept below.",
  published: "Your comment is published.",
  rejected: "Your comment was not published: the automatic check refused it for the reasons below. Your text is kept below; change what they name and send again.",
  // No one reviews a guest comment the check could not approve (docs/status.md): only a new send can publish it.
  uncertain: "Your comment was not published: the automatic check could not approve it, for the reasons below. No one reviews it later, so it stays unpublished; change what they name and send again. Your text is kept below.",
};

/** The service checks `[nickname, text]` together (guest/comments.ts), so a reason's field says which of the two it is about. */
const REASON_SUBJECT: Record<string, string> = { "texts.0": "Your nickname", "texts.1": "Your comment" };
const NICKNAME_REFUSED = "The check objects to your nickname, which is sent with every comment: press “Change nickname” to choose another, then send again.";

/** How long the CAPTCHA script may take before the form says it did not come (a blocker may drop it without an error). */
const CAPTCHA_LOAD_TIMEOUT_MS = 15_000;
const captchaUnavailable = (scriptUrl: string) => {
  const host = new URL(scriptUrl).host;
  return `The CAPTCHA could not load from ${host}: a content blocker or the connection stopped it. Allow ${host} or check the connection, then press “Load the CAPTCHA again”. Your text is kept.`;
};

export const codePoints = (text: string) => Array.from(text).length;
/** How often a send still being checked is looked up again, and for how long (past the server's 2-minute fallback). */
const CHECKING_POLL_MS = 3_000;
const MAX_CHECKING_POLLS = 60;
const lookupUrl = (requestId: string) => `/api/showcase/human-comments/lookup?request_id=${encodeURIComponent(requestId)}`;

function rememberOwn(id: string) {
  const own = new Set<string>(JSON.parse(localStorage.getItem(OWN_COMMENTS) ?? "[]"));
  own.add(id);
  localStorage.setItem(OWN_COMMENTS, JSON.stringify([...own]));
}

async function answerOf(response: Response) {
  const body = await response.json().catch(() => null);
  return { status: response.status, body };
}

/** The form field a refusal names (`details.issues[0].field` or `details.field`), if it is one of this form's. */
function refusedField(body: { error?: { details?: { field?: unknown; issues?: Array<{ field?: unknown }> } } } | null): "nickname" | "text" | null {
  const field = body?.error?.details?.issues?.[0]?.field ?? body?.error?.details?.field;
  return field === "nickname" || field === "text" ? field : null;
}

/**
 * The guest comment form. The draft (text and the request_id of a send whose answer never came)
 * lives in localStorage, so a reload keeps it and reconciles an uncertain send by lookup.
 * `goneReplyTo`: the comment a `reply_to` link named when it is no longer shown; a reply drafted to it
 * moves to the article's own form, so the text is not left where no form can reach it.
 */
export function CommentForm({ postId, articleRevisionId, answered, goneReplyTo = null }: { postId: string; articleRevisionId: string; answered: AnsweredComment | null; goneReplyTo?: string | null }) {
  const router = useRouter();
  const parentId = answered?.id ?? null;
  const draftFor = useCallback((parent: string | null) => `board-draft:${postId}:${parent ?? "root"}`, [postId]);
  const draftKey = draftFor(parentId);
  const [view, setView] = useState<SessionView | null>(null);
  const [nickname, setNickname] = useState("");
  const [text, setText] = useState("");
  const [status, setStatus] = useState("");
  const [reasons, setReasons] = useState<CheckReason[]>([]);
  const [renaming, setRenaming] = useState(false);
  const [captchaFailed, setCaptchaFailed] = useState(false);
  const [captchaAttempt, setCaptchaAttempt] = useState(0);
  const captchaScript = useRef<HTMLScriptElement | null>(null);
  const nicknameField = useRef<HTMLInputElement>(null);
  const changeNickname = useRef<HTMLButtonElement>(null);
  const textField = useRef<HTMLTextAreaElement>(null);
  const statusRegion = useRef<HTMLDivElement>(null);
  // Where the keyboard focus goes once React has drawn the change a button made: the button itself is gone
  // (or disabled while sending) by then, and focus would fall back to the page's start.
  const [focusTarget, setFocusTarget] = useState<"nickname" | "change" | "text" | "status" | null>(null);
  useEffect(() => {
    if (!focusTarget) return;
    ({ nickname: nicknameField, change: changeNickname, text: textField, status: statusRegion })[focusTarget].current?.focus();
    setFocusTarget(null);
  }, [focusTarget]);
  const [busy, setBusy] = useState(false);
  const [token, setToken] = useState<string | null>(null);
  const [hydrated, setHydrated] = useState(false);
  const widget = useRef<HTMLDivElement>(null);
  const widgetId = useRef<string | null>(null);
  const followUp = useRef<ReturnType<typeof setTimeout> | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      clearTimeout(followUp.current ?? undefined);
    };
  }, []);
  const [awaitingCheck, setAwaitingCheck] = useState(false);
  const textId = useId();
  const errorId = useId();
  const statusId = useId();
  // The field a refusal names: marked invalid and described by the status line that says why.
  const [invalidField, setInvalidField] = useState<"nickname" | "text" | null>(null);
  const describedBy = (own: string, field: "nickname" | "text") => (invalidField === field ? `${own} ${statusId}` : own);

  const saveDraft = useCallback((draft: { text: string; requestId: string | null }) => localStorage.setItem(draftKey, JSON.stringify(draft)), [draftKey]);
  const readDraft = useCallback((): { text: string; requestId: string | null } => JSON.parse(localStorage.getItem(draftKey) ?? '{"text":"","requestId":null}'), [draftKey]);

  const settle = useCallback(
    function settleReceipt(receipt: Receipt, polls = 0) {
      if (!mounted.current) return;
      rememberOwn(receipt.comment_id);
      clearTimeout(followUp.current ?? undefined);
      setAwaitingCheck(receipt.state === "checking");
      if (receipt.state === "checking") {
        // The text stays as sent (read-only meanwhile), kept with its request id, so a reload reconciles the same send.
        setText(receipt.text);
        saveDraft({ text: receipt.text, requestId: receipt.request_id });
        if (polls >= MAX_CHECKING_POLLS) return setStatus("Your comment is still being checked. Your text is kept; reload the page later to see the outcome.");
        setStatus(OUTCOME_TEXT.checking!);
        followUp.current = setTimeout(() => {
          fetch(lookupUrl(receipt.request_id), { headers: { accept: "application/json" } })
            .then(async (response) => {
              if (response.ok) return settleReceipt((await response.json()) as Receipt, polls + 1);
              if (response.status !== 404) return settleReceipt(receipt, polls + 1);
              if (!mounted.current) return;
              setAwaitingCheck(false);
              saveDraft({ text: receipt.text, requestId: null });
              setStatus("Your comment was not published: it is no longer found (the article or the comment it answers may have been taken down while it was checked, or the check could not run). Your text is kept below; send it again.");
            })
            .catch(() => settleReceipt(receipt, polls + 1));
        }, CHECKING_POLL_MS);
        return;
      }
      if (receipt.published) {
        setReasons([]);
        localStorage.removeItem(draftKey);
        setText("");
        setFocusTarget("status");
        if (!parentId) {
          setStatus(OUTCOME_TEXT.published!);
          return router.refresh();
        }
        // Staying in reply mode would put the next comment under the same one without saying so.
        setStatus("Your reply is published. The form below now comments on the article.");
        return router.replace(`/showcase/${postId}#comment-${receipt.comment_id}`);
      }
      setStatus(OUTCOME_TEXT[receipt.state] ?? `Your comment is ${receipt.state}.`);
      setReasons(receipt.state === "rejected" || receipt.state === "uncertain" ? receipt.reasons : []);
      setInvalidField(receipt.reasons.some((reason) => reason.field === "texts.1") ? "text" : null);
      setText(receipt.text);
      saveDraft({ text: receipt.text, requestId: null });
    },
    [draftKey, parentId, postId, router, saveDraft],
  );

  useEffect(() => {
    setHydrated(true);
    const draft = readDraft();
    setText(draft.text);
    // A refusal (429 within the public read allowance, 503) is no form configuration: the page stays readable and says so.
    const unavailable = () => setStatus("The comment form could not load just now. Reload the page in a minute to comment.");
    void fetch("/api/showcase/human-session", { headers: { accept: "application/json" } })
      .then(async (r) => (r.ok ? setView((await r.json()) as SessionView) : unavailable()))
      .catch(unavailable);
    if (draft.requestId) {
      void fetch(lookupUrl(draft.requestId), { headers: { accept: "application/json" } }).then(async (response) => {
        if (response.ok) return settle((await response.json()) as Receipt);
        if (response.status !== 404) return;
        // Not stored under that id: the send was refused or never arrived. Nothing is left to look up next time.
        saveDraft({ text: draft.text, requestId: null });
        setStatus("Your last send did not become a comment (it was refused or did not arrive); your text is kept. Send it again.");
      });
    }
  }, [readDraft, saveDraft, settle]);

  useEffect(() => {
    if (!goneReplyTo) return;
    const orphanKey = draftFor(goneReplyTo);
    const orphan = JSON.parse(localStorage.getItem(orphanKey) ?? '{"text":"","requestId":null}') as { text: string; requestId: string | null };
    if (orphan.text.trim() === "") {
      setStatus("The comment you wanted to reply to is no longer available; this form comments on the article.");
      return;
    }
    const own = readDraft();
    const merged = own.text.trim() === "" ? orphan.text : `${own.text}\n\n${orphan.text}`;
    saveDraft({ text: merged, requestId: null });
    localStorage.removeItem(orphanKey);
    setText(merged);
    setStatus("The comment you were replying to is no longer available. Your reply is kept below, now as a comment on the article; change it if it needs its context.");
  }, [goneReplyTo, draftFor, readDraft, saveDraft]);

  useEffect(() => {
    const captcha = view?.form.captcha;
    if (!view?.session || !captcha || !widget.current || widgetId.current !== null || captchaScript.current) return;
    const render = () => {
      const api = (window as unknown as { hcaptcha?: Hcaptcha }).hcaptcha;
      if (!api || !widget.current || widgetId.current !== null) return;
      widgetId.current = api.render(widget.current, { sitekey: captcha.site_key, callback: setToken });
    };
    if ((window as unknown as { hcaptcha?: Hcaptcha }).hcaptcha) return render();
    const script = document.createElement("script");
    script.src = captcha.script_url;
    script.async = true;
    captchaScript.current = script;
    let settled = false;
    // Without the widget there is nothing to tick: the reader is told why, and can load it again.
    const fail = () => {
      if (settled || !mounted.current) return;
      settled = true;
      script.remove();
      captchaScript.current = null;
      setCaptchaFailed(true);
      setStatus(captchaUnavailable(captcha.script_url));
    };
    const timeout = setTimeout(fail, CAPTCHA_LOAD_TIMEOUT_MS);
    script.addEventListener("load", () => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      render();
    });
    script.addEventListener("error", () => {
      clearTimeout(timeout);
      fail();
    });
    document.head.append(script);
  }, [view, captchaAttempt]);

  function loadCaptchaAgain() {
    setCaptchaFailed(false);
    setStatus("");
    setCaptchaAttempt((attempt) => attempt + 1);
  }

  /** Leaving reply mode takes the unsent reply along to the article's own form, unless that holds a draft already. */
  function carryDraftToArticle() {
    const reply = readDraft();
    const own = JSON.parse(localStorage.getItem(draftFor(null)) ?? '{"text":"","requestId":null}') as { text: string; requestId: string | null };
    if (reply.requestId || reply.text.trim() === "" || own.requestId || own.text.trim() !== "") return;
    localStorage.setItem(draftFor(null), JSON.stringify({ text: reply.text, requestId: null }));
    localStorage.removeItem(draftKey);
  }

  // Plain links, so they work before (and without) the form's script too.
  const heading = (
    <>
      <h2 id="comment-form-heading">{answered ? `Reply to ${answered.author}` : "Add a comment"}</h2>
      {answered ? (
        <p className="reply-context">
          You are answering <a href={`#comment-${answered.id}`}>this comment by {answered.author}</a>
          {answered.quote ? <>: <q>{answered.quote}</q></> : null}.{" "}
          <a href={`/showcase/${postId}#comment-form`} onClick={carryDraftToArticle}>
            Cancel reply
          </a>
        </p>
      ) : null}
    </>
  );
  // The server's page has no session yet: without JavaScript the form never comes (its CAPTCHA runs
  // in the browser), so the reader is told so rather than left with a loading line.
  if (!view) {
    return (
      <section aria-labelledby="comment-form-heading" id="comment-form">
        {heading}
        <noscript>
          <p>Commenting needs JavaScript: the form and its CAPTCHA run in your browser. Reading needs none.</p>
        </noscript>
        {status ? (
          <p role="status" className="form-status">
            {status}
          </p>
        ) : hydrated ? (
          <p>Loading the comment form…</p>
        ) : null}
      </section>
    );
  }
  /** Starts a session, or (the API's rename, which needs the session's CSRF token) changes its nickname. */
  async function startSession(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    const csrf: Record<string, string> = view?.session ? { "x-csrf-token": view.session.csrf_token } : {};
    const { status: code, body } = await answerOf(await fetch("/api/showcase/human-session", { method: "POST", headers: { "content-type": "application/json", accept: "application/json", ...csrf }, body: JSON.stringify({ nickname }) }));
    setBusy(false);
    setInvalidField(code === 201 || code === 200 ? null : refusedField(body));
    if (code !== 201 && code !== 200) return setStatus(body?.error?.message ?? "Could not start a session; try again.");
    const started = body as SessionView;
    setView(started);
    setReasons([]);
    // A refusal of the nickname typed before no longer applies.
    setStatus(renaming ? `You now comment as ${started.session?.nickname}. Your text is kept; send it again.` : started.form.comments_open ? `You comment as ${started.session?.nickname}.` : `You can now report as ${started.session?.nickname}.`);
    if (renaming) {
      setRenaming(false);
      setFocusTarget("change");
    } else if (started.form.comments_open) {
      setFocusTarget("text");
    }
  }

  async function send(event: React.FormEvent) {
    event.preventDefault();
    if (!view?.session) return;
    if (!token) return setStatus(captchaFailed && view.form.captcha ? captchaUnavailable(view.form.captcha.script_url) : "Tick the CAPTCHA first.");
    const draft = readDraft();
    const requestId = draft.requestId && draft.text === text ? draft.requestId : `guest_${crypto.randomUUID().replace(/-/g, "")}`;
    saveDraft({ text, requestId });
    setBusy(true);
    setReasons([]);
    setStatus("Sending…");
    try {
      const response = await fetch(`/api/showcase/posts/${postId}/human-comments`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", "x-csrf-token": view.session.csrf_token },
        body: JSON.stringify({ text, nickname: view.session.nickname, article_revision_id: articleRevisionId, request_id: requestId, captcha_token: token, ...(parentId ? { parent_comment_id: parentId } : {}) }),
      });
      const { status: code, body } = await answerOf(response);
      setInvalidField(code === 200 || code === 201 ? null : refusedField(body));
      if (code === 200 || code === 201) settle(body as Receipt);
      else {
        // Only a conflict says this id is spent on other content. Any other refusal (429 before the
        // request was read, a 5xx) may follow an earlier send of it that did land: the next send
        // must carry the same id, so the server answers with that comment instead of a second one.
        saveDraft({ text, requestId: code === 409 ? null : requestId });
        const message: string = body?.error?.message ?? "The comment was not accepted.";
        setStatus(/draft|text is kept/i.test(message) ? message : `${message} Your text is kept.`);
      }
    } catch {
      setStatus("No answer arrived; your text is kept. Reload the page to find out whether it was received.");
    } finally {
      setBusy(false);
      // The send button was disabled while sending, which drops focus: it returns to the kept text (a publication moves it to the status line).
      setFocusTarget((target) => target ?? "text");
      setToken(null);
      const api = (window as unknown as { hcaptcha?: Hcaptcha }).hcaptcha;
      if (api && widgetId.current !== null) api.reset(widgetId.current);
    }
  }

  // Counted as the server counts (code points of the trimmed nickname): a maxlength would count UTF-16 units instead.
  const nicknameLeft = view.form.limits.nickname_code_points - codePoints(nickname.trim());
  const nicknameForm = (action: string, cancel?: React.ReactNode) => (
    <form onSubmit={startSession}>
      <label htmlFor={`${textId}-nick`}>Nickname</label>
      <input
        id={`${textId}-nick`}
        ref={nicknameField}
        value={nickname}
        onChange={(e) => {
          setNickname(e.target.value);
          setInvalidField(null);
        }}
        required
        aria-invalid={nicknameLeft < 0 || invalidField === "nickname"}
        aria-describedby={describedBy(`${textId}-nick-rules ${textId}-nick-left`, "nickname")}
      />
      <p id={`${textId}-nick-rules`}>{view.form.nickname_rules}</p>
      <p id={`${textId}-nick-left`}>{nicknameLeft >= 0 ? `${nicknameLeft} characters left` : `${-nicknameLeft} characters too many`}</p>
      <button type="submit" disabled={busy || nicknameLeft < 0}>
        {action}
      </button>{" "}
      {cancel}
    </form>
  );
  const nicknameRefused = reasons.some((reason) => reason.field === "texts.0");
  const statusLine = (
    <div id={statusId} ref={statusRegion} tabIndex={-1} role="status" aria-live="polite" className="form-status">
      {status ? <p>{status}</p> : null}
      {reasons.length > 0 ? (
        <ul>
          {reasons.map((reason) => (
            <li key={`${reason.code}:${reason.field ?? ""}:${reason.message}`}>{reason.field && REASON_SUBJECT[reason.field] ? `${REASON_SUBJECT[reason.field]}: ${reason.message}` : reason.message}</li>
          ))}
        </ul>
      ) : null}
      {nicknameRefused && view.session ? <p>{NICKNAME_REFUSED}</p> : null}
    </div>
  );
  // Closed to comments, the site still takes reports, which need a guest session (no CAPTCHA).
  if (!view.form.comments_open) {
    return (
      <section aria-labelledby="comment-form-heading" id="comment-form">
        <h2 id="comment-form-heading">{view.form.paused_until ? "Reader comments are paused" : "Reader comments are closed"}</h2>
        <p>
          {view.form.paused_until
            ? `Today's automatic reviews of reader comments are used up; comments open again at ${new Date(view.form.paused_until * 1000).toISOString().slice(11, 16)} UTC. Any text you wrote is kept in this browser.`
            : "Comments from readers are closed on this site."}
        </p>
        {statusLine}
        {view.session ? <p>You can report articles and comments as {view.session.nickname}.</p> : (
          <>
            <p>To report an article or a comment to the operators, choose a nickname first.</p>
            {nicknameForm("Start a session to report")}
          </>
        )}
      </section>
    );
  }

  const remaining = view.form.limits.text_code_points - codePoints(text);
  return (
    <section aria-labelledby="comment-form-heading" id="comment-form">
      {heading}
      {statusLine}
      {!view.session ? (
        nicknameForm("Start commenting")
      ) : (
        <>
          {renaming ? (
            nicknameForm(
              "Save nickname",
              <button
                type="button"
                onClick={() => {
                  setRenaming(false);
                  setInvalidField(null);
                  setFocusTarget("change");
                }}
              >
                Keep {view.session.nickname}
              </button>,
            )
          ) : null}
          <form onSubmit={send}>
            <p>Commenting as {view.session.nickname}. Comments are plain text, any language, checked automatically before anyone sees them.</p>
            {renaming ? null : (
              <button
                type="button"
                ref={changeNickname}
                onClick={() => {
                  setNickname(view.session!.nickname);
                  setRenaming(true);
                  setFocusTarget("nickname");
                }}
              >
                Change nickname
              </button>
            )}
            <label htmlFor={textId}>Your comment</label>
            <textarea
              id={textId}
              ref={textField}
              value={text}
              rows={5}
              readOnly={busy || awaitingCheck}
              onChange={(e) => {
                setText(e.target.value);
                setInvalidField(null);
                saveDraft({ text: e.target.value, requestId: null });
              }}
              required
              aria-invalid={remaining < 0 || invalidField === "text"}
              aria-describedby={describedBy(errorId, "text")}
            />
            <p id={errorId}>{remaining >= 0 ? `${remaining} characters left` : `${-remaining} characters too many`}</p>
            <div ref={widget} />
            {captchaFailed ? (
              <button type="button" onClick={loadCaptchaAgain}>
                Load the CAPTCHA again
              </button>
            ) : null}
            <button type="submit" disabled={busy || awaitingCheck || remaining < 0 || text.trim() === ""}>
              Send comment
            </button>
          </form>
        </>
      )}
    </section>
  );
}

/** Where the page announces what happened to a comment that is no longer there to say it (page.tsx). */
export const COMMENTS_STATUS_ID = "comments-status";

/**
 * Delete for the comments this browser sent (it remembers their ids); the server checks ownership.
 * Deleting cannot be undone, so it asks once more; afterwards the comment is gone, so the comments'
 * heading takes the focus and the comments' status line says what happened.
 */
export function OwnCommentControls({ commentId }: { commentId: string }) {
  const router = useRouter();
  const [own, setOwn] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState("");
  const confirmButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => setOwn((JSON.parse(localStorage.getItem(OWN_COMMENTS) ?? "[]") as string[]).includes(commentId)), [commentId]);
  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
    else if (asked.current) deleteButton.current?.focus();
  }, [confirming]);
  if (!own) return null;
  async function remove() {
    setBusy(true);
    const session = (await (await fetch("/api/showcase/human-session")).json()) as SessionView;
    if (!session.session) {
      setBusy(false);
      setConfirming(false);
      return setStatus("This browser's session is gone; the comment can no longer be deleted from here.");
    }
    const response = await fetch(`/api/showcase/human-comments/${commentId}`, { method: "DELETE", headers: { accept: "application/json", "x-csrf-token": session.session.csrf_token } });
    setBusy(false);
    if (!response.ok) {
      setConfirming(false);
      return setStatus("Could not delete the comment; try again.");
    }
    const announcement = document.getElementById(COMMENTS_STATUS_ID);
    if (announcement) announcement.textContent = "Your comment was deleted.";
    document.getElementById("comments-heading")?.focus();
    router.refresh();
  }
  return (
    <>
      {confirming ? (
        <span role="group" aria-label="Delete this comment?">
          Delete this comment for good? It cannot be brought back.{" "}
          <button type="button" ref={confirmButton} onClick={remove} disabled={busy}>
            Yes, delete it
          </button>{" "}
          <button type="button" onClick={() => setConfirming(false)} disabled={busy}>
            Keep it
          </button>
        </span>
      ) : (
        <button
          type="button"
          ref={deleteButton}
          onClick={() => {
            asked.current = true;
            setStatus("");
            setConfirming(true);
          }}
        >
          Delete my comment
        </button>
      )}
      <span role="status">{status}</span>
    </>
  );
}

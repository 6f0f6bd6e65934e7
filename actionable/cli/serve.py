"""``actionable serve``: a warm planning service on FastAPI and uvicorn.

The planning LM and the translation LM load once; requests then pay only for planning. Endpoints
(OpenAPI docs at ``/docs``, the schema at ``/openapi.json``):

``GET /health``
    ``{"status": "ok", "model", "lm_mode", "busy", "queued"}``.
``POST /plan``
    ``{"task", "variant"?, "world"?, "scene"?, "description"?, "max_steps"?, "seed"?, "timeout_s"?}`` -> the
    same JSON object as ``actionable plan --json`` for the same task and variant: ``goal`` (default,
    as the CLI: read the task as goal conditions and plan to them; a task read as no goal goes to
    the grounded LM planner) or ``grounded``; ``lm_mode`` says how the LM scored candidates.
``POST /verify``
    ``{"plan": text or lines, "goal"?, "judge"?, "planner"?, "scene"?, "max_rounds"?}`` -> the same
    JSON as ``actionable verify --json`` (the ``llm``/``hybrid`` judge uses the service's model).
``POST /continual/step``
    ``{"instructions"?, "steps"?, "seed"?, "agent"?, ...}`` -> a continual episode of ``steps``
    skills (default 1) from the seeded start, as ``actionable follow`` runs it: ``trace`` (one record
    a step, the ``follow --trace-out`` lines) and ``summary``. The service keeps no episode state
    between requests: a request replays its episode from step 0.

Concurrency: every request runs on the one model under one lock, first come first served; a
request that waits or runs longer than its ``timeout_s`` (default ``--timeout``) is answered 504
with a message that says so (a plan already running finishes in the background, and the next
request waits for it). A client that disconnects while waiting is dropped from the queue.

Security: bound to 127.0.0.1 by default. Bound to any other address the service refuses to start
without a token (``--token`` or ``$ACTIONABLE_SERVE_TOKEN``), and then every request but
``/health`` and the docs must send ``Authorization: Bearer <token>`` (401 otherwise).
"""

import asyncio
import hmac
import ipaddress
import os
import threading
import time
from typing import Any, Literal, Optional

import typer

from actionable.core import defaults as D

TOKEN_ENV = "ACTIONABLE_SERVE_TOKEN"


def is_loopback(host: str) -> bool:
    """Whether ``host`` only accepts connections from this machine (``localhost``, 127.0.0.0/8, ::1)."""
    if host in ("localhost",):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """The token rule: a non-loopback ``host`` needs a token.

    Raises:
        ConfigError: ``host`` is not loopback and ``token`` is empty (the message says how to give one).
    """
    from actionable.core.errors import ConfigError

    if not is_loopback(host) and not token:
        raise ConfigError(f"--host {host} accepts connections from other machines, so the service needs a token: "
                          f"give --token <secret> or set ${TOKEN_ENV}; clients then send 'Authorization: Bearer "
                          "<secret>'. Without a token, bind to 127.0.0.1 (the default)")


class Engine:
    """The service's one model and its queue: a planning session per scene, sharing the LMs.

    Args:
        model: planning LM spec; lm_mode: ``--lm-mode``; world: the world plans are made in;
        cache: use the LM response cache; session: an already-built
        :class:`~actionable.planning.session.PlanningSession` (tests).
    """

    def __init__(self, model: str = D.MODEL, lm_mode: str = "auto", world: str = D.WORLD,
                 translation_model: str = D.TRANSLATION_MODEL, cache: bool = True, session=None,
                 scene: str = D.PLAN_SCENE):
        self.model, self.lm_mode, self.world, self.cache = model, lm_mode, world, cache
        self.translation_model = translation_model
        self.lock = threading.Lock()
        self.queued = 0
        self.busy = False
        self.served = 0
        self._session = session
        self._default_scene = scene
        self._sessions: dict[str, Any] = {}
        self._interps: dict[str, Any] = {}  # goal interpreters by scene, built on first use

    def load(self) -> None:
        """Load the models (at start-up, so the first request does not pay for it)."""
        if self._session is None:
            from actionable.core.config import LMConfig, make_config
            from actionable.core.registry import planning_domain
            from actionable.planning.session import PlanningSession

            domain = planning_domain(self.world, self._default_scene)
            lcfg = make_config(LMConfig, model=self.model, translation_model=self.translation_model,
                               cache=self.cache, lm_mode=self.lm_mode)
            self._session = PlanningSession(lcfg, None, scene=domain, bank=domain.example_bank())
        self._sessions[self._session.scene.name] = self._session
        self._session.grounded_planner()  # the LM-mode probe runs here, once

    @property
    def lm(self):
        return self._session.lm

    def mode(self) -> str:
        return self._session.grounded_planner().lm_mode if self._session is not None else "not loaded"

    def session_for(self, scene: str | None, world: str | None = None):
        """The session of ``scene`` in ``world`` (default: the service's), built on first use from the
        loaded one (the models are shared)."""
        from actionable.core.registry import planning_domain

        world = world or self.world
        default = self._default_scene if world == self.world else None
        dom = planning_domain(world, scene or default)
        key = dom.name if world == self.world else f"{world}:{dom.name}"
        if key not in self._sessions:
            self._sessions[key] = self._session.with_scene(dom)
        return self._sessions[key]

    # ------------------------------------------------------------------ work (under the lock)
    def plan(self, req: dict) -> dict:
        from actionable.cli.plan import plan_task_json
        from actionable.core.config import GroundedConfig, make_config

        session = self.session_for(req.get("scene"), req.get("world"))
        gcfg = make_config(GroundedConfig, max_steps=req.get("max_steps"), seed=req.get("seed"))
        interps = self._interps.setdefault(req.get("world") or self.world, {})
        return plan_task_json(session, session.grounded_planner(gcfg), session.scene, req["task"],
                              req.get("description"), req.get("variant") or "goal", req.get("max_steps"),
                              interps)

    def verify(self, req: dict) -> dict:
        from actionable.api import verify

        plan = req["plan"]
        judge, planner = req.get("judge") or D.JUDGE, req.get("planner") or D.VERIFY_PLANNER
        needs = judge in ("llm", "hybrid") or planner == "llm"
        res = verify(plan if isinstance(plan, str) else list(plan), goal=req.get("goal"), judge=judge,
                     planner=planner, model=self.model, scene=req.get("scene") or D.VERIFY_SCENE,
                     max_rounds=req.get("max_rounds") or D.MAX_ROUNDS, cache=self.cache,
                     world=req.get("world") or self.world, lm=self.lm if needs else None)
        return {"goal": req.get("goal") or getattr(res.initial, "task", None), "judge": judge, "planner": planner,
                "model": self.lm.model_id if needs else None, **res.to_dict()}

    def continual(self, req: dict) -> dict:
        from actionable.api import follow

        res = follow(req.get("instructions"), world=req.get("world") or D.WORLD, steps=req.get("steps") or 1,
                     seed=req.get("seed") if req.get("seed") is not None else D.SEED,
                     agent=req.get("agent") or D.AGENT, count=req.get("count") or D.INSTRUCTION_COUNT,
                     interpreter=req.get("interpreter") or "rule", model=self.model, cache=self.cache,
                     progress=False, lm=self.lm)
        d = res.to_dict()
        return {"trace": d.pop("trace"), "summary": d}


def create_app(engine: Engine, token: str | None = None, timeout_s: float = 120.0):
    """The FastAPI app over ``engine`` (module doc). ``token``: required bearer token, or ``None``."""
    from fastapi import Depends, FastAPI, HTTPException, Request
    from fastapi.responses import JSONResponse
    from pydantic import BaseModel, ConfigDict, Field

    from actionable.core.errors import ActionableError, BackendUnavailableError, ConfigError, InputError

    app = FastAPI(title="actionable", description="Plan, verify and follow instructions with one warm model "
                                                  "(the JSON of `actionable plan --json`, `verify --json`, "
                                                  "`follow`).", version="1")

    class PlanRequest(BaseModel):
        model_config = ConfigDict(extra="forbid")
        task: str = Field(..., description="the household task, e.g. 'Make coffee'", max_length=300)
        variant: Optional[Literal["goal", "grounded"]] = Field(
            None, description="goal (default, as `actionable plan`) or grounded (the LM planner)")
        world: Optional[str] = Field(None, description="virtualhome | thor | pddl (default: the service's "
                                                       "--env), as `actionable plan --env`")
        scene: Optional[str] = Field(None, description="scene of the service's world (default: its default)")
        description: Optional[str] = Field(None, max_length=2000)
        max_steps: Optional[int] = Field(None, ge=1, le=200)
        seed: Optional[int] = Field(None, ge=0)
        timeout_s: Optional[float] = Field(None, gt=0, le=3600, description="waiting + planning, seconds")

    class PlanResponse(BaseModel):
        model_config = ConfigDict(extra="allow")
        task: str
        variant: str
        world: str
        scene: str
        lm_mode: str = Field(..., description="score (a), choice-logprobs (b), choice-name (c) or none")
        program_text: list[str]
        program_script: str
        executability: Optional[dict]
        stop_reason: str
        warnings: list[str]
        models: dict
        session: dict

    class VerifyRequest(BaseModel):
        model_config = ConfigDict(extra="forbid")
        plan: str | list[str] = Field(..., description="the plan: plan text, one action a line, or the lines")
        goal: Optional[str] = None
        judge: Optional[str] = Field(None, description="hybrid | sim | rule | llm")
        planner: Optional[str] = Field(None, description="apply | llm")
        scene: Optional[str] = None
        world: Optional[str] = None
        max_rounds: Optional[int] = Field(None, ge=1, le=20)
        timeout_s: Optional[float] = Field(None, gt=0, le=3600)

    class VerifyResponse(BaseModel):
        model_config = ConfigDict(extra="allow")
        judge: str
        planner: str
        rounds: list
        converged: bool

    class StepRequest(BaseModel):
        model_config = ConfigDict(extra="forbid")
        instructions: Optional[list[str]] = Field(None, description="'If <condition>, <action>.' lines; "
                                                                    "default: a seeded set")
        steps: int = Field(1, ge=1, le=200)
        seed: Optional[int] = Field(None, ge=0)
        agent: Optional[str] = None
        count: Optional[int] = Field(None, ge=1, le=20)
        world: Optional[str] = None
        interpreter: Optional[str] = Field(None, description="rule (default here) | lm")
        timeout_s: Optional[float] = Field(None, gt=0, le=3600)

    class StepResponse(BaseModel):
        trace: list[dict]
        summary: dict

    def auth(request: Request) -> None:
        if token is None:
            return
        got = request.headers.get("authorization", "")
        if not (got.startswith("Bearer ") and hmac.compare_digest(got[7:].encode(), token.encode())):
            raise HTTPException(401, "this service needs 'Authorization: Bearer <token>' (the token given to "
                                     "actionable serve --token or $" + TOKEN_ENV + ")")

    async def run(request: Request, fn, body: dict, limit: float | None):
        limit = float(limit or timeout_s)
        t0 = time.monotonic()
        engine.queued += 1
        try:
            # wait for the model without blocking the event loop; give up when the client left
            while not engine.lock.acquire(blocking=False):
                if await request.is_disconnected():
                    raise HTTPException(499, "client disconnected while queued")
                if time.monotonic() - t0 > limit:
                    raise HTTPException(504, f"timed out after {limit:.0f} s waiting for the model (other requests "
                                             "were running); retry, or raise timeout_s")
                await asyncio.sleep(0.02)
        finally:
            engine.queued -= 1
        engine.busy = True
        done = threading.Event()

        def work():
            try:
                return fn(body)
            finally:
                engine.busy = False
                engine.served += 1
                engine.lock.release()
                done.set()

        task = asyncio.get_running_loop().run_in_executor(None, work)
        left = max(0.01, limit - (time.monotonic() - t0))
        try:
            return await asyncio.wait_for(asyncio.shield(task), left)
        except asyncio.TimeoutError:
            raise HTTPException(504, f"timed out after {limit:.0f} s: the request is still running on the model "
                                     "and will finish in the background; retry with a larger timeout_s") from None
        except BackendUnavailableError as exc:
            raise HTTPException(503, str(exc)) from None
        except (ConfigError, InputError) as exc:
            raise HTTPException(422, str(exc)) from None
        except ActionableError as exc:
            raise HTTPException(422, str(exc)) from None  # the message names what was wrong; never a class name

    @app.exception_handler(HTTPException)
    async def _http(request, exc):  # one shape for every error: {"error": message}
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    @app.get("/health")
    def health() -> dict:
        return {"status": "ok", "model": engine.lm.model_id, "lm_mode": engine.mode(), "busy": engine.busy,
                "queued": engine.queued, "served": engine.served}

    @app.post("/plan", response_model=PlanResponse, dependencies=[Depends(auth)],
              summary="Plan a task (the JSON of `actionable plan --json`)")
    async def plan(req: PlanRequest, request: Request):
        return await run(request, engine.plan, req.model_dump(), req.timeout_s)

    @app.post("/verify", response_model=VerifyResponse, dependencies=[Depends(auth)],
              summary="Critique a plan (the JSON of `actionable verify --json`)")
    async def verify(req: VerifyRequest, request: Request):
        return await run(request, engine.verify, req.model_dump(), req.timeout_s)

    @app.post("/continual/step", response_model=StepResponse, dependencies=[Depends(auth)],
              summary="Run a continual episode of `steps` skills (the records of `actionable follow`)")
    async def step(req: StepRequest, request: Request):
        return await run(request, engine.continual, req.model_dump(), req.timeout_s)

    return app


def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind: 127.0.0.1 (default, this machine only). "
                                                          "Any other address needs --token."),
    port: int = typer.Option(8077, "--port", min=1, max=65535, help="TCP port (default 8077)."),
    model: str = typer.Option(D.MODEL, "--model", "-m", help="Planning LM, as for `actionable plan --model` "
                                                             "(embedded, gguf:<file>, openai:<name>@<url>, "
                                                             "openai-chat:<name>@<url>, hf:<path>)."),
    lm_mode: str = typer.Option("auto", "--lm-mode", metavar="auto|score|choice-logprobs|choice-name",
                                help="How candidates are scored (see `actionable plan --help`)."),
    env: str = typer.Option(D.WORLD, "--env", "-e", help="World plans are made in (virtualhome, thor, ...)."),
    token: Optional[str] = typer.Option(None, "--token", envvar=TOKEN_ENV, show_envvar=True,
                                        help="Bearer token every request must send (required off loopback)."),
    timeout: float = typer.Option(120.0, "--timeout", min=0.1, help="Default per-request limit in seconds "
                                                                   "(waiting in the queue + running)."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not use the LM response cache."),
) -> None:
    """Serve plan, verify and continual-step endpoints over HTTP with one warm model.

    The models load once at start-up; then POST /plan, /verify and /continual/step answer with the
    JSON of `plan --json`, `verify --json` and `follow` (/plan plans as `plan` does: the goal planner,
    or {"variant": "grounded"} for the LM planner). Requests queue on the one model; one that
    takes longer than --timeout (or its timeout_s) gets HTTP 504 saying so. OpenAPI docs at
    http://HOST:PORT/docs. Bound to 127.0.0.1 unless --host says otherwise; any other address
    requires --token, and requests then send 'Authorization: Bearer <token>'.
    """
    from actionable.cli.progress import line
    from actionable.core.errors import ConfigError
    from actionable.lm.choice import MODE_CHOICES
    from actionable.lm.registry import check_spec

    if lm_mode not in MODE_CHOICES:
        raise ConfigError(f"--lm-mode: unknown mode {lm_mode!r}; use one of {', '.join(MODE_CHOICES)}")
    check_bind(host, token)
    check_spec(model)
    try:
        import fastapi  # noqa: F401
        import uvicorn
    except ImportError as exc:
        raise ConfigError(f"actionable serve needs FastAPI and uvicorn: pip install 'actionable[serve]' ({exc})") from None

    engine = Engine(model=model, lm_mode=lm_mode, world=env, cache=not no_cache)
    t0 = time.perf_counter()
    line(f"loading models ({model}) ...")
    engine.load()
    line(f"ready in {time.perf_counter() - t0:.1f} s: http://{host}:{port} (docs at /docs; LM mode {engine.mode()}"
         + ("; token required" if token else "") + ")")
    uvicorn.run(create_app(engine, token=token or None, timeout_s=timeout), host=host, port=port,
                log_level=os.environ.get("ACTIONABLE_SERVE_LOG", "warning"))


def register(app, eval_app) -> None:
    """Add ``actionable serve`` to the root app."""
    app.command("serve", help=serve_command.__doc__)(serve_command)

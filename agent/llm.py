"""Ollama through langchain-ollama: availability, streamed answers, structured output, and errors users can act on."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

import httpx
import ollama
from langchain_core.messages import BaseMessage
from langchain_ollama import ChatOllama
from pydantic import BaseModel, Field
from tenacity import retry, retry_if_exception, stop_after_attempt, wait_fixed

from agent.settings import AgentSettings

T = TypeVar("T", bound=BaseModel)


class LLMError(Exception):
    """An Ollama failure, classified: unreachable, model_missing, timeout, malformed or server_error."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind
        self.message = message


class LLMStatus(BaseModel):
    """Whether the configured Ollama server answers and has the model."""

    url: str = Field(description="Base URL that was probed.")
    reachable: bool = Field(description="The server answered /api/tags.")
    models: list[str] = Field(default_factory=list, description="Models pulled on the server.")
    model: str = Field(description="The model the settings ask for.")
    model_pulled: bool = Field(False, description="The requested model is among the pulled ones.")
    message: str = Field("", description="One line for the user when Ollama cannot be used.")

    @property
    def usable(self) -> bool:
        return self.reachable and self.model_pulled


def _same_model(a: str, b: str) -> bool:
    norm = lambda m: m if ":" in m else f"{m}:latest"  # noqa: E731
    return norm(a) == norm(b)


def probe(settings: AgentSettings, timeout: float = 5.0) -> LLMStatus:
    url, model = settings.base_url, settings.model
    try:
        listed = ollama.Client(host=url, timeout=timeout).list()
    except (ConnectionError, httpx.HTTPError, ollama.ResponseError) as exc:
        return LLMStatus(
            url=url,
            reachable=False,
            model=model,
            message=f"Ollama is not reachable at {url} ({type(exc).__name__}): start it with "
            "`ollama serve`; answering in extractive mode",
        )
    names = sorted(m.model for m in listed.models if m.model)
    pulled = any(_same_model(n, model) for n in names)
    message = (
        ""
        if pulled
        else (f"model {model!r} is not pulled on {url}: run `ollama pull {model}`; answering in extractive mode")
    )
    return LLMStatus(url=url, reachable=True, models=names, model=model, model_pulled=pulled, message=message)


def classify(exc: BaseException, settings: AgentSettings) -> LLMError:
    url, model = settings.base_url, settings.model
    if isinstance(exc, LLMError):
        return exc
    if isinstance(exc, ollama.ResponseError) and exc.status_code == 404:
        return LLMError("model_missing", f"model {model!r} is not available on {url}: run `ollama pull {model}`")
    if isinstance(exc, httpx.TimeoutException):
        return LLMError("timeout", f"Ollama did not answer within {settings.llm_timeout:g} s")
    if isinstance(exc, httpx.ConnectError | ConnectionError):
        return LLMError("unreachable", f"Ollama is not reachable at {url}: start it with `ollama serve`")
    if isinstance(exc, ollama.ResponseError):
        return LLMError("server_error", f"Ollama error {exc.status_code}: {exc.error}")
    return LLMError("server_error", f"Ollama call failed: {type(exc).__name__}: {exc}")


def _transient(exc: BaseException) -> bool:
    # Server hiccups (5xx) are retried once; a missing model (404), timeouts and refused connections are not.
    return isinstance(exc, ollama.ResponseError) and exc.status_code >= 500


def num_ctx_for(messages: list[tuple[str, str]], answer_tokens: int, max_ctx: int) -> int:
    """A context window that holds the prompt and the answer, in steps of 1024 tokens (about 3 chars per token)."""
    prompt_tokens = sum(len(text) for _, text in messages) // 3 + 64
    needed = prompt_tokens + answer_tokens
    return min(max_ctx, max(2048, -(-needed // 1024) * 1024))


class OllamaLLM:
    """One model on one Ollama server; every call is timed and recorded in `calls`."""

    def __init__(self, settings: AgentSettings):
        self.settings = settings
        self.calls: list[dict[str, Any]] = []

    def _chat(self, num_ctx: int, **extra: Any) -> ChatOllama:
        return ChatOllama(
            model=self.settings.model,
            base_url=self.settings.base_url,
            num_ctx=num_ctx,
            temperature=0,
            client_kwargs={"timeout": self.settings.llm_timeout},
            **extra,
        )

    def _record(self, purpose: str, started: float, num_ctx: int, ok: bool, error: str | None = None) -> None:
        self.calls.append(
            {
                "purpose": purpose,
                "model": self.settings.model,
                "num_ctx": num_ctx,
                "ok": ok,
                "error": error,
                "seconds": round(time.perf_counter() - started, 3),
            }
        )

    def stream(
        self, purpose: str, messages: list[tuple[str, str]], on_token: Callable[[str], None], answer_tokens: int = 768
    ) -> str:
        num_ctx = num_ctx_for(messages, answer_tokens, self.settings.max_ctx)
        started = time.perf_counter()

        @retry(retry=retry_if_exception(_transient), stop=stop_after_attempt(2), wait=wait_fixed(0.5), reraise=True)
        def run() -> str:
            pieces: list[str] = []
            for chunk in self._chat(num_ctx).stream(messages):
                text = chunk.content if isinstance(chunk, BaseMessage) else str(chunk)
                if isinstance(text, str) and text:
                    pieces.append(text)
                    on_token(text)
            return "".join(pieces)

        try:
            text = run()
        except Exception as exc:
            err = classify(exc, self.settings)
            self._record(purpose, started, num_ctx, False, err.message)
            raise err from exc
        self._record(purpose, started, num_ctx, True)
        return text

    def structured(self, purpose: str, messages: list[tuple[str, str]], schema: type[T]) -> T:
        num_ctx = num_ctx_for(messages, 256, self.settings.max_ctx)
        started = time.perf_counter()
        try:
            out = self._chat(num_ctx).with_structured_output(schema, include_raw=True).invoke(messages)
            if out.get("parsing_error") is not None or not isinstance(out.get("parsed"), schema):
                raise LLMError("malformed", f"the model's structured {purpose} reply did not match its schema")
        except Exception as exc:
            err = classify(exc, self.settings)
            self._record(purpose, started, num_ctx, False, err.message)
            raise err from exc
        self._record(purpose, started, num_ctx, True)
        return out["parsed"]


class Grade(BaseModel):
    """The LLM grader's verdict on the evidence."""

    sufficient: bool = Field(description="Whether the evidence answers the question.")
    reason: str = Field(description="One short sentence explaining the verdict.")


class Rewrite(BaseModel):
    """An LLM-proposed search query."""

    query: str = Field(description="The improved search query.")

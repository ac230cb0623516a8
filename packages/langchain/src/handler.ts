import type { AgentAction, AgentFinish } from '@langchain/core/agents';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { DocumentInterface } from '@langchain/core/documents';
import type { Serialized } from '@langchain/core/load/serializable';
import type { BaseMessage } from '@langchain/core/messages';
import type { LLMResult } from '@langchain/core/outputs';
import type { ChainValues } from '@langchain/core/utils/types';
import { ATTR } from './attributes.js';
import { guard } from './guard.js';
import {
  type AqmCallbackHandlerOptions,
  type ResolvedHandlerOptions,
  resolveHandlerOptions,
} from './options.js';
import { endChainRun, endModelRun, endRetrieverRun, endToolRun, recordError } from './run-end.js';
import { chainStart, chatModelStart, llmStart, retrieverStart, toolStart } from './run-start.js';
import { RunTracker } from './run-tracker.js';

/** LangChain keeps one handler per name on a run, so a global and a per-call handler never double up. */
const HANDLER_NAME = 'aqm_callback_handler';

/**
 * A LangChain callback handler that turns runs into OpenTelemetry spans with GenAI attributes:
 * chat models (`chat {model}`), LLMs (`text_completion {model}`), chains (`invoke_workflow {name}`),
 * agents (`invoke_agent {name}`), tools (`execute_tool {name}`) and retrievers (`retrieval {name}`).
 * A root run's span is a child of the span active when it starts (an HTTP request span, say); a
 * child run's span is a child of its parent run's.
 *
 * It never throws into LangChain: a failure inside a callback is logged through OpenTelemetry's
 * `diag` and the chain goes on. Open runs are bounded by `maxOpenRuns` and `maxRunAgeMs`.
 * LangChain calls the `handle*` methods; an app only constructs the handler and passes it on.
 *
 * @example
 * const handler = new AqmCallbackHandler();
 * await chain.invoke({ question: 'Hi?' }, { callbacks: [handler] });
 */
export class AqmCallbackHandler extends BaseCallbackHandler {
  /** LangChain's name of this handler. */
  name = HANDLER_NAME;
  readonly #options: ResolvedHandlerOptions;
  readonly #runs: RunTracker;

  /**
   * @param options - Tracer, content capture, value cap and open-run bounds; each is checked and a
   *   bad one throws an error naming it.
   */
  constructor(options: AqmCallbackHandlerOptions = {}) {
    const resolved = resolveHandlerOptions(options);
    // Awaited, not queued: LangChain then calls us in the caller's async context, so the active span
    // is the caller's and concurrent requests cannot swap parents; the callbacks do no I/O, so
    // awaiting them costs nothing. raiseError false: LangChain logs instead of failing the chain.
    super({ _awaitHandler: true, raiseError: false });
    this.#options = resolved;
    this.#runs = new RunTracker(resolved);
  }

  /**
   * How many runs have started and not ended yet.
   *
   * @example
   * handler.openRunCount; // 0 once every chain has finished
   */
  get openRunCount(): number {
    return this.#runs.openRunCount;
  }

  /**
   * The handler itself: a copy must share the open runs so child runs still find their parent.
   *
   * @example
   * handler.copy() === handler; // true
   */
  override copy(): AqmCallbackHandler {
    return this;
  }

  /**
   * A chat model run starts: a CLIENT span `chat {model}` with the prompt messages.
   *
   * @example
   * await chatModel.invoke('Hi', { callbacks: [handler] }); // LangChain calls this, then handleLLMEnd
   */
  override handleChatModelStart(
    llm: Serialized,
    messages: BaseMessage[][],
    runId: string,
    parentRunId?: string,
    extraParams?: Record<string, unknown>,
    tags?: string[],
    metadata?: Record<string, unknown>,
  ): void {
    guard('handleChatModelStart', () =>
      this.#runs.start(
        runId,
        parentRunId,
        { metadata, tags },
        chatModelStart(llm, messages, extraParams, metadata, this.#options),
      ),
    );
  }

  /**
   * A plain LLM run starts: a CLIENT span `text_completion {model}` with the prompts.
   *
   * @example
   * await llm.invoke('Complete this', { callbacks: [handler] });
   */
  override handleLLMStart(
    llm: Serialized,
    prompts: string[],
    runId: string,
    parentRunId?: string,
    extraParams?: Record<string, unknown>,
    tags?: string[],
    metadata?: Record<string, unknown>,
  ): void {
    guard('handleLLMStart', () =>
      this.#runs.start(
        runId,
        parentRunId,
        { metadata, tags },
        llmStart(llm, prompts, extraParams, metadata, this.#options),
      ),
    );
  }

  /**
   * A streamed token: kept to stand in for the answer if the final result lacks its text.
   *
   * @example
   * for await (const chunk of await model.stream('Hi', { callbacks: [handler] })) process.stdout.write(String(chunk.content));
   */
  override handleLLMNewToken(token: string, _idx: unknown, runId: string): void {
    guard('handleLLMNewToken', () => this.#runs.addToken(runId, token));
  }

  /**
   * A model run ends: output messages, finish reasons, token usage and response model.
   *
   * @example
   * await model.invoke('Hi', { callbacks: [handler] }); // the span ends here
   */
  override handleLLMEnd(output: LLMResult, runId: string): void {
    guard('handleLLMEnd', () => this.#runs.end(runId, (run) => endModelRun(run, output, this.#options)));
  }

  /**
   * A model run fails: the exception, `error.type` and an ERROR status.
   *
   * @example
   * await model.invoke('Hi', { callbacks: [handler] }).catch(() => {}); // a provider error ends the span here
   */
  override handleLLMError(error: unknown, runId: string): void {
    guard('handleLLMError', () => this.#runs.end(runId, (run) => recordError(run.span, error)));
  }

  /**
   * A chain run starts: `invoke_agent {name}` for an agent, else `invoke_workflow {name}`, with its input.
   * LangChain calls this as (chain, inputs, runId, parentRunId, tags, metadata, runType, runName):
   * `CallbackManager` and LangChain's own tracers use that order, whatever 1.x's typings say.
   *
   * @example
   * await chain.invoke({ question: 'Hi?' }, { callbacks: [handler] });
   */
  override handleChainStart(
    chain: Serialized,
    inputs: ChainValues,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    metadata?: Record<string, unknown>,
    runType?: string,
    runName?: string,
  ): void {
    guard('handleChainStart', () =>
      this.#runs.start(
        runId,
        parentRunId,
        { metadata, tags },
        chainStart(chain, inputs, runType, runName, this.#options),
      ),
    );
  }

  /**
   * A chain run ends, with its output as the assistant's message.
   *
   * @example
   * await chain.invoke({ question: 'Hi?' }, { callbacks: [handler] }); // the chain's span ends here
   */
  override handleChainEnd(outputs: ChainValues, runId: string): void {
    guard('handleChainEnd', () => this.#runs.end(runId, (run) => endChainRun(run, outputs, this.#options)));
  }

  /**
   * A chain run fails: the exception, `error.type` and an ERROR status.
   *
   * @example
   * await chain.invoke({ question: 'Hi?' }, { callbacks: [handler] }).catch(() => {});
   */
  override handleChainError(error: unknown, runId: string): void {
    guard('handleChainError', () => this.#runs.end(runId, (run) => recordError(run.span, error)));
  }

  /**
   * A tool run starts: `execute_tool {name}` with the call id and arguments.
   *
   * @example
   * await weatherTool.invoke({ id: 'call_1', name: 'get_weather', args: { city: 'Oslo' }, type: 'tool_call' }, { callbacks: [handler] });
   */
  override handleToolStart(
    tool: Serialized,
    input: string,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    metadata?: Record<string, unknown>,
    runName?: string,
    toolCallId?: string,
  ): void {
    guard('handleToolStart', () =>
      this.#runs.start(
        runId,
        parentRunId,
        { metadata, tags },
        toolStart(tool, input, runName, toolCallId, this.#options),
      ),
    );
  }

  /**
   * A tool run ends with its result (a `ToolMessage`'s content, or the value).
   *
   * @example
   * await weatherTool.invoke({ city: 'Oslo' }, { callbacks: [handler] }); // the tool's span ends here
   */
  override handleToolEnd(output: unknown, runId: string): void {
    guard('handleToolEnd', () => this.#runs.end(runId, (run) => endToolRun(run, output, this.#options)));
  }

  /**
   * A tool run fails: the exception, `error.type` and an ERROR status.
   *
   * @example
   * await weatherTool.invoke({ city: 'Oslo' }, { callbacks: [handler] }).catch(() => {});
   */
  override handleToolError(error: unknown, runId: string): void {
    guard('handleToolError', () => this.#runs.end(runId, (run) => recordError(run.span, error)));
  }

  /**
   * A retriever run starts: `retrieval {name}` with the query.
   *
   * @example
   * await retriever.invoke('capital of Norway', { callbacks: [handler] });
   */
  override handleRetrieverStart(
    retriever: Serialized,
    query: string,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    metadata?: Record<string, unknown>,
    name?: string,
  ): void {
    guard('handleRetrieverStart', () =>
      this.#runs.start(
        runId,
        parentRunId,
        { metadata, tags },
        retrieverStart(retriever, query, name, this.#options),
      ),
    );
  }

  /**
   * A retriever run ends with its documents' text as `aqm.retrieval.documents`.
   *
   * @example
   * await retriever.invoke('capital of Norway', { callbacks: [handler] }); // the retrieval span ends here
   */
  override handleRetrieverEnd(documents: DocumentInterface[], runId: string): void {
    guard('handleRetrieverEnd', () =>
      this.#runs.end(runId, (run) => endRetrieverRun(run, documents, this.#options)),
    );
  }

  /**
   * A retriever run fails: the exception, `error.type` and an ERROR status.
   *
   * @example
   * await retriever.invoke('capital of Norway', { callbacks: [handler] }).catch(() => {});
   */
  override handleRetrieverError(error: unknown, runId: string): void {
    guard('handleRetrieverError', () => this.#runs.end(runId, (run) => recordError(run.span, error)));
  }

  /**
   * An agent step (legacy `AgentExecutor`): marks the run as an agent whatever its name and adds a
   * `gen_ai.agent.action` event naming the tool.
   *
   * @example
   * await agentExecutor.invoke({ input: 'Weather in Oslo?' }, { callbacks: [handler] });
   */
  override handleAgentAction(action: AgentAction, runId: string): void {
    guard('handleAgentAction', () => {
      const tool = typeof action?.tool === 'string' ? action.tool : undefined;
      this.#runs
        .markAgent(runId)
        ?.span.addEvent('gen_ai.agent.action', tool === undefined ? {} : { [ATTR.toolName]: tool });
    });
  }

  /**
   * An agent finishes (legacy `AgentExecutor`): marks the run as an agent; its output arrives with the chain's end.
   *
   * @example
   * await agentExecutor.invoke({ input: 'Weather in Oslo?' }, { callbacks: [handler] });
   */
  override handleAgentEnd(_finish: AgentFinish, runId: string): void {
    guard('handleAgentEnd', () => this.#runs.markAgent(runId));
  }
}

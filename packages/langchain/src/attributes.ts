/**
 * Attribute names and values the handler writes: the OpenTelemetry GenAI semantic conventions
 * (message content as JSON strings), plus `aqm.retrieval.documents`, which `@aqm/otel` reads as
 * the trace's retrieved context, and `aqm.tags` / `aqm.metadata.*` for the runs' tags and metadata.
 */
export const ATTR = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  requestTemperature: 'gen_ai.request.temperature',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  requestTopP: 'gen_ai.request.top_p',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  agentName: 'gen_ai.agent.name',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  retrievalQueryText: 'gen_ai.retrieval.query.text',
  retrievalDocuments: 'aqm.retrieval.documents',
  errorType: 'error.type',
  sessionId: 'session.id',
  userId: 'user.id',
  /** The run's LangChain tags (a string array), merged over the trace by `@aqm/otel`. */
  aqmTags: 'aqm.tags',
  /** One of the run's LangChain metadata entries: `aqm.metadata.<key>`. */
  aqmMetadataPrefix: 'aqm.metadata.',
} as const;

/** Values of `gen_ai.operation.name`, one per kind of LangChain run. */
export const OPERATION = {
  chat: 'chat',
  textCompletion: 'text_completion',
  invokeAgent: 'invoke_agent',
  invokeWorkflow: 'invoke_workflow',
  executeTool: 'execute_tool',
  retrieval: 'retrieval',
} as const;

/** One of {@link OPERATION}'s values. */
export type OperationName = (typeof OPERATION)[keyof typeof OPERATION];

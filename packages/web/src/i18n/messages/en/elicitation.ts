/** MCP elicitation (ADR 0038): a tool's question to the user, shown as a form in the chat and the run view. */
export const elicitationEn = {
  'elicitation.region': 'Questions from tools',
  'elicitation.needed': 'Question from {server}',
  'elicitation.during': 'asked during the call of {tool}',
  'elicitation.required': '(required)',
  'elicitation.choose': 'Choose…',
  'elicitation.yes': 'Yes',
  'elicitation.decline': 'Decline',
  'elicitation.openUrl': 'Open the page the server asks you to visit',
  'elicitation.acceptUrl': 'Done',
  'elicitation.waiting': 'Waiting for the user’s answer.',
  'elicitation.answered': '{action, select, accept {Answered} decline {Declined} other {Cancelled}} by {who}',
  'elicitation.ended': 'The call ended before an answer: the question is closed.',
  'elicitation.loading': 'Loading the form…',
} as const;

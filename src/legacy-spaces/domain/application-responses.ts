import { invalidRequest, ValidationDetail } from '../../common/errors/api-error';
import type { StoredApplicationQuestion } from '../../spaces';
import { ApplicationResponseInput } from '../dto/legacy-requests.dto';
import { StoredApplicationResponse } from '../entities/space-application.entity';

/**
 * Responses must answer configured questions, each at most once, and every required question
 * with some text. Answers are stored in the order of the questions.
 */
export function checkResponses(
  questions: StoredApplicationQuestion[],
  responses: ApplicationResponseInput[],
): StoredApplicationResponse[] {
  const details: ValidationDetail[] = [];
  const byQuestion = new Map<string, string>();
  responses.forEach((response, index) => {
    const path = `responses.${index}.question`;
    if (!questions.some((q) => q.question === response.question))
      details.push({ path, message: 'question is not one of the space’s application questions' });
    else if (byQuestion.has(response.question)) details.push({ path, message: 'question is answered twice' });
    else byQuestion.set(response.question, response.response);
  });
  for (const question of questions) {
    if (question.isRequired && !byQuestion.get(question.question))
      details.push({ path: 'responses', message: `a response to "${question.question}" is required` });
  }
  if (details.length > 0) throw invalidRequest('Invalid request', details);
  return questions
    .filter((question) => byQuestion.has(question.question))
    .map((question) => ({ question: question.question, response: byQuestion.get(question.question)! }));
}

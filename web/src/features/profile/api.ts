import type { MessageResponse, ProfileInfo, UserResponse } from '../../shared/contracts';
import { apiRequest } from '../../shared/http';
import type { OtpStage } from './otpStage';
import type { Topic } from './types';

export const fetchAllTopics = () =>
  apiRequest<{ status: true; topics: Topic[] }>('GET', '/api/topic/getalltopics');

export const updateProfile = (request: { email: string; token: string | null; info: ProfileInfo }) =>
  apiRequest<UserResponse>('POST', '/api/user/update', {
    body: { email: request.email, token: request.token ?? undefined, info: request.info },
  });

export const whatsAppOtpTransaction = (request: {
  email: string;
  phone: string;
  stage: OtpStage;
  otp: string | number;
  token: string | null;
}) =>
  apiRequest<MessageResponse>('POST', '/api/user/otpTransaction', {
    body: { ...request, token: request.token ?? undefined },
  });
